import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';

import { useLocalePath } from '#app/i18n/locale.ts';

/*
 * A payout tx id already recorded on another order or withdrawal (issue 23, decision 044). The
 * action refuses the first attempt with `duplicate-tx-id` and the records it found; the dialog
 * names them and the operator either corrects the id or records it anyway (a batch payout),
 * which sends `allowDuplicateTxId: true` for exactly the id they were warned about.
 */

export type TxDuplicate =
  | { kind: 'order'; id: string; number: string; field: 'payout' | 'refund' }
  | { kind: 'withdrawal'; id: string };

/** The warning in force: the id it is about (trimmed), its network, the other records. */
export interface DuplicateWarning {
  txId: string;
  network: string;
  duplicates: TxDuplicate[];
}

const isDuplicate = (value: unknown): value is TxDuplicate => {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record['id'] !== 'string') return false;
  if (record['kind'] === 'withdrawal') return true;
  return record['kind'] === 'order' && typeof record['number'] === 'string';
};

/** The warning a failed step carries, or null when it failed for another reason. */
export function duplicateWarningOf(error: unknown, txId: string): DuplicateWarning | null {
  if (!GraphqlRequestError.is(error) || error.code !== 'duplicate-tx-id') return null;
  const extensions = error.errors[0]?.extensions ?? {};
  const list = extensions['duplicates'];
  const network = extensions['network'];
  return {
    txId: txId.trim(),
    network: typeof network === 'string' ? network : '',
    duplicates: Array.isArray(list) ? list.filter(isDuplicate) : [],
  };
}

/** Whether `warning` is about the id now in the field (an edited id is checked afresh). */
export const warnsAbout = (warning: DuplicateWarning | null, txId: string): boolean =>
  warning !== null && warning.txId === txId.trim();

/**
 * The warning in the dialog: the other records, orders linked to their detail (in a new tab,
 * so the dialog and what was typed stay), and what a legitimate duplicate looks like.
 */
export function DuplicateTxWarning({ warning }: { warning: DuplicateWarning }) {
  const { t } = useTranslation('staffOrders');
  const localePath = useLocalePath();
  return (
    <div className="notice notice--warning staff-orders__duplicate" role="alert">
      <p>
        <strong>{t('duplicateTx.title')}</strong>
      </p>
      <p>{t('duplicateTx.text', { network: warning.network })}</p>
      <ul>
        {warning.duplicates.map((each) => (
          <li key={`${each.kind}-${each.id}`}>
            {each.kind === 'order' ? (
              <Link
                to={localePath(`/admin/transactions?order=${encodeURIComponent(each.id)}`)}
                target="_blank"
                rel="noopener"
              >
                {each.field === 'refund'
                  ? t('duplicateTx.orderRefund', { number: each.number })
                  : t('duplicateTx.order', { number: each.number })}
              </Link>
            ) : (
              t('duplicateTx.withdrawal', { id: each.id.slice(0, 8) })
            )}
          </li>
        ))}
      </ul>
      <p>{t('duplicateTx.batch')}</p>
    </div>
  );
}
