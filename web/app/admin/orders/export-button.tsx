import { useApolloClient } from '@apollo/client/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  StaffOrdersExportCountDocument,
  StaffOrdersExportDocument,
  StaffWithdrawalsExportDocument,
} from '@app/client/graphql/generated/manager.ts';

import { actionErrorMessage } from './action-error.ts';
import {
  downloadCsv,
  EXPORT_MAX_ROWS,
  EXPORT_PAGE_SIZE,
  exportFileName,
  ORDER_COLUMNS,
  orderCells,
  toCsv,
  WITHDRAWAL_COLUMNS,
  withdrawalCells,
  type Cell,
} from './csv-export.ts';
import { queueOrderBy, queueWhere, type QueueFilters } from './queue-filters.ts';

/** Counted first, then fetched page by page; the rows as CSV cells, or the refusal. */
type Outcome =
  { kind: 'rows'; rows: Cell[][] } | { kind: 'tooMany'; count: number } | { kind: 'empty' };

/**
 * The CSV export of what the section lists: every row of the current filter, not only the page
 * on screen (decision 044). The rows are fetched with the staff member's own session through
 * the same GraphQL permissions as the page (a role that cannot see them cannot export them),
 * at most 50,000; above that the filter must be narrowed, and the button says so.
 */
export function ExportButton(
  props: { section: 'orders'; filters: QueueFilters } | { section: 'withdrawals' },
) {
  const { t } = useTranslation('staffOrders');
  const client = useApolloClient();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const ordersRows = async (filters: QueueFilters): Promise<Outcome> => {
    // One instant for the late filter across every page.
    const where = queueWhere(filters, true, new Date().toISOString());
    const counted = await client.query({
      query: StaffOrdersExportCountDocument,
      variables: { where },
      fetchPolicy: 'no-cache',
    });
    const count = counted.data?.transactions_aggregate.aggregate?.count ?? 0;
    if (count === 0) return { kind: 'empty' };
    if (count > EXPORT_MAX_ROWS) return { kind: 'tooMany', count };
    // The id breaks ties in the sort, so an offset page never repeats or skips a row.
    const orderBy = [...queueOrderBy(filters.sort), { id: 'asc' as const }];
    const rows: Cell[][] = [];
    for (let offset = 0; offset < count && offset < EXPORT_MAX_ROWS; offset += EXPORT_PAGE_SIZE) {
      const page = await client.query({
        query: StaffOrdersExportDocument,
        variables: { where, orderBy, limit: EXPORT_PAGE_SIZE, offset },
        fetchPolicy: 'no-cache',
      });
      const list = page.data?.transactions ?? [];
      rows.push(...list.map(orderCells));
      if (list.length < EXPORT_PAGE_SIZE) break;
    }
    return { kind: 'rows', rows };
  };

  const withdrawalRows = async (): Promise<Outcome> => {
    const rows: Cell[][] = [];
    for (let offset = 0; offset < EXPORT_MAX_ROWS; offset += EXPORT_PAGE_SIZE) {
      const page = await client.query({
        query: StaffWithdrawalsExportDocument,
        variables: { limit: EXPORT_PAGE_SIZE, offset },
        fetchPolicy: 'no-cache',
      });
      const count = page.data?.bonus_withdrawals_aggregate.aggregate?.count ?? 0;
      if (count > EXPORT_MAX_ROWS) return { kind: 'tooMany', count };
      const list = page.data?.bonus_withdrawals ?? [];
      rows.push(...list.map(withdrawalCells));
      if (list.length < EXPORT_PAGE_SIZE) break;
    }
    return rows.length === 0 ? { kind: 'empty' } : { kind: 'rows', rows };
  };

  const run = async () => {
    setBusy(true);
    setMessage({ text: t('export.exporting'), error: false });
    try {
      const outcome =
        props.section === 'orders' ? await ordersRows(props.filters) : await withdrawalRows();
      if (outcome.kind === 'tooMany') {
        setMessage({
          text: t('export.tooMany', { count: outcome.count, max: EXPORT_MAX_ROWS }),
          error: true,
        });
      } else if (outcome.kind === 'empty') {
        setMessage({ text: t('export.empty'), error: false });
      } else {
        const header = props.section === 'orders' ? ORDER_COLUMNS : WITHDRAWAL_COLUMNS;
        downloadCsv(exportFileName(props.section), toCsv(header, outcome.rows));
        setMessage({ text: t('export.exported', { count: outcome.rows.length }), error: false });
      }
    } catch (error) {
      setMessage({
        text: t('export.failed', { message: actionErrorMessage(error, t) }),
        error: true,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="staff-orders__export">
      <button
        type="button"
        className="button button--small"
        onClick={() => void run()}
        disabled={busy}
        aria-busy={busy || undefined}
      >
        {t('export.button')}
      </button>
      <p
        className={message?.error ? 'form-message form-message--error' : 'staff-orders__muted'}
        role="status"
      >
        {message?.text ?? ''}
      </p>
    </div>
  );
}
