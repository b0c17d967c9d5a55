import { useMutation } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { StaffCustomersSetUserStatusDocument } from '@app/client/graphql/generated/administrator.ts';

import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { SelectField } from '#app/admin/fields.tsx';
import { notify } from '#app/components/notify/index.ts';

import type { Customer, Level } from './customer-data.ts';

/** Moves the customer to another level (administrators), after a confirmation. */
export function LevelForm({
  customer,
  name,
  levels,
  onChanged,
}: {
  customer: Customer;
  name: string;
  levels: Level[];
  onChanged: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const [status, setStatus] = useState(customer.status);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [save, { loading }] = useMutation(StaffCustomersSetUserStatusDocument);
  const options = levels.map((level) => ({ value: level.status, label: level.status }));
  if (!levels.some((level) => level.status === customer.status))
    options.unshift({ value: customer.status, label: customer.status });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status === customer.status) return;
    setError(undefined);
    setConfirming(true);
  };
  const confirm = () =>
    void save({ variables: { id: customer.id, status } })
      .then(() => {
        notify.success(t('rates.levelSet', { name, status }));
        setConfirming(false);
        onChanged();
      })
      .catch(() => setError(t('rates.errors.levelFailed')));

  return (
    <>
      <form className="staff-inline-form" noValidate onSubmit={onSubmit}>
        <SelectField
          id="customer-level"
          name="status"
          label={t('rates.setLevel')}
          hint={t('rates.setLevelHint')}
          value={status}
          options={options}
          onChange={(event) => setStatus(event.target.value)}
        />
        <button type="submit" className="button" disabled={status === customer.status}>
          {t('rates.setLevelButton')}
        </button>
      </form>
      {confirming ? (
        <ConfirmDialog
          open
          title={t('rates.setLevelTitle')}
          description={t('rates.setLevelText', { name, from: customer.status, to: status })}
          confirmLabel={t('rates.setLevelButton')}
          pending={loading}
          error={error}
          onConfirm={confirm}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}
