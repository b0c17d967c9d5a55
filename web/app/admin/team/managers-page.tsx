import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import {
  StaffTeamGrantManagerDocument,
  StaffTeamRevokeManagerDocument,
  StaffTeamRolesDocument,
  type StaffTeamRolesQuery,
} from '@app/client/graphql/generated/administrator.ts';
import { translateData } from '@app/client/i18n/i18n.ts';
import { isEmail, MESSAGES } from '@app/shared/forms';

import { DataTable } from '#app/account/data-table.tsx';
import { formatDateTime } from '#app/account/format.ts';
import { LoadingPage } from '#app/account/sign-in-prompt.tsx';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { InputField } from '#app/admin/fields.tsx';
import { EmptyState, LoadFailed } from '#app/admin/states.tsx';
import { useHydrated } from '#app/auth/form.tsx';
import { useSession } from '#app/auth/session.ts';
import { notify } from '#app/components/notify/index.ts';
import { useLocale } from '#app/i18n/locale.ts';

import { failureCode, grantRefusal, revokeRefusal } from './errors.ts';

type RoleRow = StaffTeamRolesQuery['roles'][number];

type Pending =
  { kind: 'grant'; email: string } | { kind: 'revoke'; userId: string; email: string } | null;

/**
 * /admin/managers (administrators; decisions 007 and 012): the staff with their roles, and
 * appointing or dismissing managers. A grant takes the e-mail of an existing account; each step
 * is confirmed, its result announced, and a refusal (`user-not-found`, `user-disabled`,
 * `administrator`, `invalid-input`; `cannot-revoke-self`) named in the page's language.
 */
export function ManagersPage() {
  const { t } = useTranslation('staffTeam');
  const roles = useQuery(StaffTeamRolesDocument);

  if (!roles.data) {
    if (roles.error)
      return (
        <main id="main" className="container section team-page">
          <h1>{t('managers.title')}</h1>
          <LoadFailed
            className="team-alert"
            message={t('managers.list.loadFailed')}
            onRetry={() => roles.refetch()}
          />
        </main>
      );
    return <LoadingPage />;
  }
  return (
    <Managers
      rows={roles.data.roles}
      refreshing={roles.loading}
      refreshFailed={roles.error !== undefined}
      refetch={() => roles.refetch()}
    />
  );
}

function Managers({
  rows,
  refreshing,
  refreshFailed,
  refetch,
}: {
  rows: RoleRow[];
  refreshing: boolean;
  refreshFailed: boolean;
  refetch: () => Promise<unknown>;
}) {
  const { t } = useTranslation('staffTeam');
  const locale = useLocale();
  const hydrated = useHydrated();
  const me = useSession((state) => state.user?.id);
  const emailInput = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [pending, setPending] = useState<Pending>(null);
  const [dialogError, setDialogError] = useState<string | undefined>();
  const [grant, granting] = useMutation(StaffTeamGrantManagerDocument);
  const [revoke, revoking] = useMutation(StaffTeamRevokeManagerDocument);
  const working = granting.loading || revoking.loading;

  const reload = () => {
    refetch().catch(() => undefined);
  };
  const close = () => {
    setPending(null);
    setDialogError(undefined);
  };
  // A refused e-mail: the field takes focus once the dialog has closed (the dialog's own effect,
  // a child's, runs first and hands focus back to what opened it).
  const [refocus, setRefocus] = useState(0);
  useEffect(() => {
    if (refocus > 0) emailInput.current?.focus();
  }, [refocus]);

  const onGrantSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = email.trim().toLowerCase();
    const problem = !address
      ? t(MESSAGES.required)
      : isEmail(address)
        ? undefined
        : t(MESSAGES.email);
    setEmailError(problem);
    if (problem) {
      emailInput.current?.focus();
      return;
    }
    setDialogError(undefined);
    setPending({ kind: 'grant', email: address });
  };

  const confirm = () => {
    if (!pending || working) return;
    if (pending.kind === 'grant') {
      const address = pending.email;
      grant({ variables: { email: address } })
        .then(({ data }) => {
          const result = data?.grantManagerRole;
          if (!result) throw new Error('grantManagerRole answered nothing');
          const shown = result.email ?? address;
          notify.success(
            result.changed
              ? t('managers.grant.granted', { email: shown })
              : t('managers.grant.unchanged', { email: shown }),
          );
          setEmail('');
          setEmailError(undefined);
          close();
          reload();
        })
        .catch((error: unknown) => {
          const refusal = grantRefusal(failureCode(error));
          const message = translateData(t, refusal.key, { email: address });
          if (!refusal.field) {
            setDialogError(message);
            return;
          }
          setEmailError(message);
          close();
          setRefocus((count) => count + 1);
        });
      return;
    }
    const { userId, email: address } = pending;
    revoke({ variables: { userId } })
      .then(({ data }) => {
        const result = data?.revokeManagerRole;
        if (!result) throw new Error('revokeManagerRole answered nothing');
        const shown = result.email ?? address;
        notify.success(
          result.changed
            ? t('managers.revoke.revoked', { email: shown })
            : t('managers.revoke.unchanged', { email: shown }),
        );
        close();
        reload();
      })
      .catch((error: unknown) => {
        setDialogError(translateData(t, revokeRefusal(failureCode(error)), { email: address }));
      });
  };

  const roleName = (type: string) =>
    type === 'admin' || type === 'manager'
      ? t(`managers.roles.${type}`)
      : t('managers.roles.other');

  return (
    <main id="main" className="container section team-page">
      <header className="team-page__header">
        <h1>{t('managers.title')}</h1>
        <p className="team-page__lead">{t('managers.lead')}</p>
      </header>

      <section className="card team-grant" aria-labelledby="grant-title">
        <h2 id="grant-title">{t('managers.grant.title')}</h2>
        <form noValidate onSubmit={onGrantSubmit} className="team-grant__form">
          <InputField
            ref={emailInput}
            id="grant-email"
            name="grant-email"
            type="email"
            autoComplete="off"
            inputMode="email"
            spellCheck={false}
            maxLength={254}
            required
            label={t('managers.grant.email')}
            hint={t('managers.grant.hint')}
            value={email}
            error={emailError}
            onChange={(event) => {
              setEmail(event.target.value);
              if (emailError) setEmailError(undefined);
            }}
          />
          <button
            type="submit"
            className="button button--primary team-grant__submit"
            disabled={!hydrated}
          >
            {t('managers.grant.submit')}
          </button>
        </form>
      </section>

      <section className="team-list" aria-labelledby="staff-title" aria-busy={refreshing}>
        <div className="team-list__header">
          <h2 id="staff-title">{t('managers.list.titleWithCount', { count: rows.length })}</h2>
          {refreshing ? (
            <span className="team-muted" role="status">
              {t('refreshing')}
            </span>
          ) : null}
        </div>
        {refreshFailed ? (
          <LoadFailed
            className="team-alert"
            message={t('managers.list.loadFailed')}
            onRetry={refetch}
          />
        ) : null}
        {rows.length === 0 ? (
          <EmptyState title={t('managers.list.empty')} />
        ) : (
          <DataTable
            caption={t('managers.list.caption')}
            columns={[
              { id: 'email', label: t('managers.list.email') },
              { id: 'telegram', label: t('managers.list.telegram') },
              { id: 'role', label: t('managers.list.role') },
              { id: 'since', label: t('managers.list.since') },
              { id: 'actions', label: t('managers.list.actions') },
            ]}
            rows={rows.map((row) => {
              const address = row.user.email ?? t('managers.list.noEmail');
              return {
                key: row.id,
                cells: [
                  <span key="email" className="team-email">
                    {address}
                    {row.user.id === me ? (
                      <span className="team-badge">{t('managers.list.you')}</span>
                    ) : null}
                  </span>,
                  row.user.telegram_username ? (
                    `@${row.user.telegram_username.replace(/^@/, '')}`
                  ) : (
                    <span key="telegram" className="team-muted">
                      {t('managers.list.none')}
                    </span>
                  ),
                  <span key="role" className={`team-role team-role--${row.role_type}`}>
                    {roleName(row.role_type)}
                  </span>,
                  <time key="since" dateTime={row.created_at}>
                    {formatDateTime(row.created_at, locale)}
                  </time>,
                  row.role_type === 'manager' && row.user.id !== me ? (
                    <button
                      key="revoke"
                      type="button"
                      className="button button--small button--danger"
                      aria-label={t('managers.revoke.label', { email: address })}
                      disabled={!hydrated}
                      onClick={() => {
                        setDialogError(undefined);
                        setPending({ kind: 'revoke', userId: row.user.id, email: address });
                      }}
                    >
                      {t('managers.revoke.action')}
                    </button>
                  ) : (
                    <span key="none" className="team-muted">
                      {t('managers.list.notManaged')}
                    </span>
                  ),
                ],
              };
            })}
          />
        )}
      </section>

      <ConfirmDialog
        open={pending !== null}
        title={
          pending?.kind === 'revoke'
            ? t('managers.revoke.confirmTitle')
            : t('managers.grant.confirmTitle')
        }
        description={
          pending?.kind === 'revoke'
            ? t('managers.revoke.confirmText', { email: pending.email })
            : pending
              ? t('managers.grant.confirmText', { email: pending.email })
              : undefined
        }
        confirmLabel={
          pending?.kind === 'revoke' ? t('managers.revoke.confirm') : t('managers.grant.confirm')
        }
        danger={pending?.kind === 'revoke'}
        pending={working}
        error={dialogError}
        onConfirm={confirm}
        onClose={close}
      />
    </main>
  );
}
