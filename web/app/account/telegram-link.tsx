import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { TelegramLinkAnswer, TelegramLinkStatus } from '@app/client/auth/api.ts';
import { toFailure } from '@app/client/auth/session-types.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import { authErrorMessage } from '@app/shared/forms';

import { useHydrated } from '#app/auth/form.tsx';
import { authApi } from '#app/auth/session.ts';
import { notify } from '#app/components/notify/store.ts';

/** While a link is shown, how often the page asks whether the bot has linked it. */
const POLL_MS = 3000;

type State =
  | { status: 'loading' }
  | { status: 'error' }
  | ({ status: 'ready'; pending: TelegramLinkAnswer | null } & TelegramLinkStatus);

/**
 * Settings → Telegram (issue 22, decision 037): "Link Telegram" asks the auth service for a
 * one-time link into the bot (t.me/<bot>?start=link_…, built by the service); the person opens
 * it and presses Start, and the bot links their Telegram. The page asks every few seconds until
 * it is linked, then offers Unlink. An account whose address is not confirmed cannot link.
 */
export function TelegramLinkSection({ emailVerified }: { emailVerified: boolean }) {
  const { t } = useTranslation('links');
  const hydrated = useHydrated();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [busy, setBusy] = useState(false);

  const failed = useCallback(
    (error: unknown) => notify.error(t(keyFromData(authErrorMessage(toFailure(error).code)))),
    [t],
  );

  const refresh = useCallback(async (pending: TelegramLinkAnswer | null) => {
    const status = await authApi().telegramLinkStatus();
    setState({ status: 'ready', ...status, pending: status.linked ? null : pending });
    return status.linked;
  }, []);

  useEffect(() => {
    refresh(null).catch(() => setState({ status: 'error' }));
  }, [refresh]);

  const pending = state.status === 'ready' ? state.pending : null;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      refresh(pending)
        .then((linked) => {
          if (linked) notify.success(t('telegram.linked'));
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [pending, refresh, t]);

  const run = (work: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    work()
      .catch(failed)
      .finally(() => setBusy(false));
  };

  const link = () =>
    run(async () => {
      const answer = await authApi().linkTelegram();
      setState({ status: 'ready', linked: false, username: null, pending: answer });
    });

  const check = () =>
    run(async () => {
      if (!pending) return;
      if (await refresh(pending)) notify.success(t('telegram.linked'));
      else notify.error(t('telegram.notYet'));
    });

  const unlink = () =>
    run(async () => {
      await authApi().unlinkTelegram();
      setState({ status: 'ready', linked: false, username: null, pending: null });
      notify.success(t('telegram.unlinked'));
    });

  return (
    <section className="settings-section" aria-labelledby="telegram-link-title">
      <h2 id="telegram-link-title">{t('telegram.title')}</h2>
      {state.status === 'loading' ? (
        <p role="status">{t('common:loading')}</p>
      ) : state.status === 'error' ? (
        <p role="alert">{t('common:notify.somethingWentWrong')}</p>
      ) : state.linked ? (
        <>
          <p data-testid="telegram-linked">
            {state.username
              ? t('telegram.linkedAs', { username: state.username })
              : t('telegram.linked')}
          </p>
          <button
            type="button"
            className="button button--danger"
            disabled={!hydrated || busy}
            onClick={unlink}
          >
            {t('telegram.unlink')}
          </button>
        </>
      ) : (
        <>
          <p>{t('telegram.intro')}</p>
          {!emailVerified ? (
            <p className="field__hint">{t('telegram.needsEmail')}</p>
          ) : state.pending ? (
            <>
              <p role="status">
                {t('telegram.pending', { count: Math.round(state.pending.expiresIn / 60) })}
              </p>
              <div className="settings-section__actions">
                <a
                  className="button"
                  href={state.pending.url}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {t('telegram.open')}
                </a>
                <button type="button" className="button" disabled={busy} onClick={check}>
                  {t('telegram.check')}
                </button>
              </div>
            </>
          ) : (
            <button type="button" className="button" disabled={!hydrated || busy} onClick={link}>
              {t('telegram.link')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
