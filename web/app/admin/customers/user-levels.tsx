import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  StaffCustomersDeleteUserLevelDocument,
  StaffCustomersInsertUserLevelDocument,
  StaffCustomersUpdateUserLevelDocument,
} from '@app/client/graphql/generated/administrator.ts';
import { GraphqlRequestError } from '@app/client/graphql/request.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';

import { DataTable } from '#app/account/data-table.tsx';
import { percentOf } from '@app/client/affiliate/referral.ts';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { TextField } from '#app/auth/form.tsx';
import { notify } from '#app/components/notify/index.ts';

import type { Level } from './customer-data.ts';
import { parseCount, percentToFraction } from './decimal.ts';

/** The level every customer falls back to; it cannot be deleted. */
const DEFAULT_LEVEL = 'new';
const STATUS = /^[a-z][a-z0-9_]{0,31}$/;

type Field = 'status' | 'buy' | 'sell' | 'minOrders';
type Values = Record<Field, string>;

/** Checks a level's fields; the margins are typed as percentages. */
export function validateLevel(
  values: Values,
  isNew: boolean,
):
  | {
      ok: true;
      level: { status: string; buy_margin: string; sell_margin: string; min_orders: number };
    }
  | { ok: false; errors: Partial<Record<Field, string>> } {
  const errors: Partial<Record<Field, string>> = {};
  const status = values.status.trim();
  if (isNew && status === '') errors.status = 'common:validation.required';
  else if (isNew && !STATUS.test(status)) errors.status = 'staffCustomers:levels.errors.status';
  const buy = percentToFraction(values.buy);
  const sell = percentToFraction(values.sell);
  const minOrders = parseCount(values.minOrders);
  const check = (field: Field, value: unknown, message: string) => {
    if (values[field].trim() === '') errors[field] = 'common:validation.required';
    else if (value === undefined) errors[field] = message;
  };
  check('buy', buy, 'staffCustomers:levels.errors.margin');
  check('sell', sell, 'staffCustomers:levels.errors.margin');
  check('minOrders', minOrders, 'staffCustomers:levels.errors.minOrders');
  if (Object.keys(errors).length > 0 || buy === undefined || sell === undefined)
    return { ok: false, errors };
  return {
    ok: true,
    level: { status, buy_margin: buy, sell_margin: sell, min_orders: minOrders ?? 0 },
  };
}

type Dialog = { kind: 'edit'; level: Level } | { kind: 'add' } | { kind: 'delete'; level: Level };

/**
 * The user levels (spec section 3: status, buy margin, sell margin, min orders), which every
 * staff member reads; administrators edit them, add levels and delete any but `new`.
 */
export function UserLevels({
  levels,
  failed,
  admin,
  onRetry,
  onChanged,
}: {
  levels: Level[] | undefined;
  failed: boolean;
  admin: boolean;
  onRetry: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const [dialog, setDialog] = useState<Dialog | null>(null);

  let body;
  if (failed) {
    body = (
      <div className="empty-state" role="alert">
        <p className="empty-state__title">{t('levels.loadFailed')}</p>
        <button type="button" className="button" onClick={onRetry}>
          {t('staff:retry')}
        </button>
      </div>
    );
  } else if (!levels) {
    body = <p role="status">{t('common:loading')}</p>;
  } else if (levels.length === 0) {
    body = <p className="empty-state">{t('levels.empty')}</p>;
  } else {
    body = (
      <DataTable
        caption={t('levels.caption')}
        columns={[
          { id: 'status', label: t('levels.status') },
          { id: 'buy', label: t('levels.buyMargin') },
          { id: 'sell', label: t('levels.sellMargin') },
          { id: 'orders', label: t('levels.minOrders') },
          ...(admin ? [{ id: 'actions', label: t('levels.actions') }] : []),
        ]}
        rows={levels.map((level) => ({
          key: level.status,
          cells: [
            level.status,
            `${percentOf(level.buy_margin)} %`,
            `${percentOf(level.sell_margin)} %`,
            String(level.min_orders),
            ...(admin
              ? [
                  <div key="actions" className="staff-customers__row-actions">
                    <button
                      type="button"
                      className="button button--small"
                      aria-label={t('levels.editLabel', { status: level.status })}
                      onClick={() => setDialog({ kind: 'edit', level })}
                    >
                      {t('staff:actions.edit')}
                    </button>
                    {level.status === DEFAULT_LEVEL ? null : (
                      <button
                        type="button"
                        className="button button--small button--danger"
                        aria-label={t('levels.deleteLabel', { status: level.status })}
                        onClick={() => setDialog({ kind: 'delete', level })}
                      >
                        {t('levels.delete')}
                      </button>
                    )}
                  </div>,
                ]
              : []),
          ],
        }))}
      />
    );
  }

  return (
    <section className="card user-levels" aria-labelledby="levels-title">
      <div className="account-page__header">
        <h2 id="levels-title">{t('levels.title')}</h2>
        {admin && levels ? (
          <button type="button" className="button" onClick={() => setDialog({ kind: 'add' })}>
            {t('levels.add')}
          </button>
        ) : null}
      </div>
      <p>{t('levels.explain')}</p>
      {admin ? null : <p className="field__hint">{t('levels.readOnly')}</p>}
      {body}
      {dialog?.kind === 'delete' ? (
        <DeleteLevel level={dialog.level} onClose={() => setDialog(null)} onDone={onChanged} />
      ) : dialog ? (
        <LevelDialog
          level={dialog.kind === 'edit' ? dialog.level : undefined}
          onClose={() => setDialog(null)}
          onDone={onChanged}
        />
      ) : null}
    </section>
  );
}

/** The message for a refused level write: a taken status or order count, or a generic one. */
function levelError(error: unknown): string {
  if (
    GraphqlRequestError.is(error) &&
    error.code === 'constraint-violation' &&
    /uniqueness/i.test(error.message)
  )
    return 'levels.errors.taken';
  return 'levels.errors.saveFailed';
}

function LevelDialog({
  level,
  onClose,
  onDone,
}: {
  level: Level | undefined;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const [values, setValues] = useState<Values>({
    status: level?.status ?? '',
    buy: level ? percentOf(level.buy_margin) : '',
    sell: level ? percentOf(level.sell_margin) : '',
    minOrders: level ? String(level.min_orders) : '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | undefined>();
  const [update, updating] = useMutation(StaffCustomersUpdateUserLevelDocument);
  const [insert, inserting] = useMutation(StaffCustomersInsertUserLevelDocument);
  const pending = updating.loading || inserting.loading;

  const change = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onConfirm = () => {
    const result = validateLevel(values, level === undefined);
    if (!result.ok) {
      setErrors(result.errors);
      const first = (['status', 'buy', 'sell', 'minOrders'] as const).find(
        (field) => result.errors[field],
      );
      if (first) document.getElementById(`level-${first}`)?.focus();
      return;
    }
    setError(undefined);
    const { status, ...set } = result.level;
    const request = level
      ? update({ variables: { status: level.status, set } }).then(({ data }) => {
          if (!data?.update_user_levels_by_pk) throw new Error('the level was not updated');
        })
      : insert({ variables: { object: result.level } }).then(() => undefined);
    request
      .then(() => {
        notify.success(
          level ? t('levels.saved', { status: level.status }) : t('levels.added', { status }),
        );
        onClose();
        onDone();
      })
      .catch((failure: unknown) => setError(t(keyFromData(levelError(failure)))));
  };

  return (
    <ConfirmDialog
      open
      title={level ? t('levels.editTitle', { status: level.status }) : t('levels.addTitle')}
      description={t('levels.dialogText')}
      confirmLabel={t('staff:actions.save')}
      pending={pending}
      error={error}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {level ? null : (
        <TextField
          id="level-status"
          name="status"
          autoComplete="off"
          label={t('levels.status')}
          hint={t('levels.statusHint')}
          value={values.status}
          error={errors.status}
          maxLength={32}
          onChange={change('status')}
        />
      )}
      <TextField
        id="level-buy"
        name="buyMargin"
        autoComplete="off"
        inputMode="decimal"
        label={t('levels.buyMarginPercent')}
        hint={t('levels.buyHint')}
        value={values.buy}
        error={errors.buy}
        onChange={change('buy')}
      />
      <TextField
        id="level-sell"
        name="sellMargin"
        autoComplete="off"
        inputMode="decimal"
        label={t('levels.sellMarginPercent')}
        hint={t('levels.sellHint')}
        value={values.sell}
        error={errors.sell}
        onChange={change('sell')}
      />
      <TextField
        id="level-minOrders"
        name="minOrders"
        autoComplete="off"
        inputMode="numeric"
        label={t('levels.minOrders')}
        hint={t('levels.minOrdersHint')}
        value={values.minOrders}
        error={errors.minOrders}
        onChange={change('minOrders')}
      />
    </ConfirmDialog>
  );
}

function DeleteLevel({
  level,
  onClose,
  onDone,
}: {
  level: Level;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const [remove, { loading }] = useMutation(StaffCustomersDeleteUserLevelDocument);
  const [error, setError] = useState<string | undefined>();
  return (
    <ConfirmDialog
      open
      danger
      title={t('levels.deleteTitle', { status: level.status })}
      description={t('levels.deleteText', { status: level.status })}
      confirmLabel={t('levels.delete')}
      pending={loading}
      error={error}
      onConfirm={() =>
        void remove({ variables: { status: level.status } })
          .then(({ data }) => {
            if (!data?.delete_user_levels_by_pk) throw new Error('the level was not deleted');
            notify.success(t('levels.deleted', { status: level.status }));
            onClose();
            onDone();
          })
          .catch(() => setError(t('levels.errors.deleteFailed')))
      }
      onClose={onClose}
    />
  );
}
