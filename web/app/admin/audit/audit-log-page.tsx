import { useQuery } from '@apollo/client/react';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import {
  StaffAuditLogDocument,
  type StaffAuditLogQuery,
} from '@app/client/graphql/generated/administrator.ts';

import { formatDateTime, PAGE_SIZE, pageCount, pageFromSearch } from '#app/account/format.ts';
import { Pagination } from '#app/account/pagination.tsx';
import { InputField, SelectField } from '#app/admin/fields.tsx';
import { EmptyState, Loading, RetryButton } from '#app/admin/states.tsx';
import { useLocale } from '#app/i18n/locale.ts';

import { auditDiff, type AuditValue, type DiffLine } from './diff.ts';
import {
  ACTOR_MAX,
  AUDITED_TABLES,
  auditFiltersFromSearch,
  auditWhere,
  hasAuditFilters,
  isAuditedTable,
  searchOfAuditFilters,
  type AuditFilters,
} from './filters.ts';

type Entry = StaffAuditLogQuery['staff_audit_log'][number];

/**
 * /admin/audit-log (administrators; issue 23, decision 045): what staff changed, newest first,
 * twenty a page on the server, filtered by table, actor and days (all in the address); each
 * entry with who, when, what, and its fields before and after, the changed ones first. Read
 * only: the log has no edit or delete, here or anywhere.
 */
export function AuditLogPage() {
  const { t } = useTranslation('staffAudit');
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = auditFiltersFromSearch(searchParams);
  const page = pageFromSearch(searchParams);
  const where = useMemo(
    () =>
      auditWhere({
        table: filters.table,
        actor: filters.actor,
        from: filters.from,
        to: filters.to,
      }),
    [filters.table, filters.actor, filters.from, filters.to],
  );
  const list = useQuery(StaffAuditLogDocument, {
    variables: { where, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    notifyOnNetworkStatusChange: true,
  });
  const entries = list.data?.staff_audit_log;
  const total = list.data?.staff_audit_log_aggregate.aggregate?.count ?? 0;
  const filtered = hasAuditFilters(filters);

  let content;
  if (list.error) {
    content = (
      <EmptyState title={t('loadFailed')} alert>
        <RetryButton onRetry={() => list.refetch()} />
      </EmptyState>
    );
  } else if (!entries) {
    content = <Loading className="audit-log__status" />;
  } else if (entries.length === 0) {
    content = (
      <EmptyState
        title={total > 0 ? t('pageEmpty') : filtered ? t('staff:table.noMatches') : t('empty')}
      >
        {total > 0 || filtered ? (
          <Link
            className="button"
            to={{ search: total > 0 ? searchOfAuditFilters(filters).toString() : '' }}
          >
            {total > 0 ? t('firstPage') : t('staff:actions.reset')}
          </Link>
        ) : null}
      </EmptyState>
    );
  } else {
    content = (
      <ol className="audit-log__entries" aria-label={t('caption')}>
        {entries.map((entry) => (
          <AuditEntry key={String(entry.id)} entry={entry} />
        ))}
      </ol>
    );
  }

  return (
    <main id="main" className="container section account-page audit-log">
      <div className="account-page__header">
        <h1>{t('title')}</h1>
      </div>
      <p className="lead">{t('lead')}</p>
      <FiltersForm
        key={searchParams.toString()}
        filters={filters}
        onApply={(next) => setSearchParams(searchOfAuditFilters(next))}
      />
      {entries ? (
        <p className="audit-log__count" aria-live="polite">
          {t('count', { count: total })}
        </p>
      ) : null}
      {content}
      {total > PAGE_SIZE || page > 1 ? (
        <Pagination page={page} pages={pageCount(total)} total={total} />
      ) : null}
    </main>
  );
}

function FiltersForm({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}) {
  const { t } = useTranslation('staffAudit');
  const [values, setValues] = useState(filters);
  const [rangeError, setRangeError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (values.from && values.to && values.from > values.to) {
      setRangeError('staffAudit:filters.rangeError');
      document.getElementById('audit-to')?.focus();
      return;
    }
    onApply(values);
  };

  return (
    <form
      className="card staff-filters"
      role="search"
      aria-label={t('filters.label')}
      noValidate
      onSubmit={onSubmit}
    >
      <SelectField
        id="audit-table"
        name="table"
        label={t('filters.table')}
        value={values.table}
        options={[
          { value: '', label: t('filters.allTables') },
          ...AUDITED_TABLES.map((table) => ({ value: table, label: t(`tables.${table}`) })),
        ]}
        onChange={(event) => {
          const table = event.target.value;
          setValues((current) => ({ ...current, table: isAuditedTable(table) ? table : '' }));
        }}
      />
      <InputField
        id="audit-actor"
        name="actor"
        type="search"
        label={t('filters.actor')}
        value={values.actor}
        maxLength={ACTOR_MAX}
        onChange={(event) => {
          const actor = event.target.value;
          setValues((current) => ({ ...current, actor }));
        }}
      />
      <InputField
        id="audit-from"
        name="from"
        type="date"
        label={t('filters.from')}
        value={values.from}
        onChange={(event) => {
          const from = event.target.value;
          setValues((current) => ({ ...current, from }));
          setRangeError(undefined);
        }}
      />
      <InputField
        id="audit-to"
        name="to"
        type="date"
        label={t('filters.to')}
        value={values.to}
        error={rangeError}
        translateError
        onChange={(event) => {
          const to = event.target.value;
          setValues((current) => ({ ...current, to }));
          setRangeError(undefined);
        }}
      />
      <div className="staff-filters__actions">
        <button type="submit" className="button button--primary">
          {t('staff:actions.apply')}
        </button>
        <Link className="button" to={{ search: '' }}>
          {t('staff:actions.reset')}
        </Link>
      </div>
    </form>
  );
}

/** Who made the change: the account and its role, or the database user without a session. */
function useWho() {
  const { t } = useTranslation('staffAudit');
  return (entry: Entry): string => {
    if (!entry.actor_id && !entry.actor_role) return t('who.noSession', { dbRole: entry.db_role });
    const role = entry.actor_role ?? '';
    const roleText =
      role === 'administrator' || role === 'manager' || role === 'user' || role === 'admin'
        ? t(`roles.${role}`)
        : role;
    const account =
      entry.actor?.email ??
      (entry.actor_id ? t('who.unknownAccount', { id: entry.actor_id }) : t('roles.admin'));
    return t('who.staff', { email: account, role: roleText });
  };
}

function AuditEntry({ entry }: { entry: Entry }) {
  const { t } = useTranslation('staffAudit');
  const locale = useLocale();
  const who = useWho();
  const lines = auditDiff(entry.before, entry.after);
  const changed = lines.filter((line) => line.changed);
  const unchanged = lines.filter((line) => !line.changed);
  const action =
    entry.action === 'insert' || entry.action === 'update' || entry.action === 'delete'
      ? t(`actions.${entry.action}`)
      : entry.action;
  const table = isAuditedTable(entry.table_name)
    ? t(`tables.${entry.table_name}`)
    : entry.table_name;

  return (
    <li className="card audit-entry" data-testid="audit-entry">
      <dl className="audit-entry__facts">
        <div>
          <dt>{t('columns.when')}</dt>
          <dd>
            <time dateTime={entry.created_at}>{formatDateTime(entry.created_at, locale)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('columns.who')}</dt>
          <dd>{who(entry)}</dd>
        </div>
        <div>
          <dt>{t('columns.what')}</dt>
          <dd>
            <span className={`audit-entry__action audit-entry__action--${entry.action}`}>
              {action}
            </span>{' '}
            {table} ·{' '}
            <span className="audit-entry__key">{t('record', { key: entry.row_key })}</span>
          </dd>
        </div>
      </dl>
      <DiffTable lines={changed} caption={t('columns.changes')} />
      {unchanged.length > 0 ? (
        <details className="audit-entry__unchanged">
          <summary>{t('diff.unchanged', { count: unchanged.length })}</summary>
          <DiffTable lines={unchanged} caption={t('diff.unchanged', { count: unchanged.length })} />
        </details>
      ) : null}
    </li>
  );
}

function DiffTable({ lines, caption }: { lines: DiffLine[]; caption: string }) {
  const { t } = useTranslation('staffAudit');
  if (lines.length === 0) return null;
  const text = (value: AuditValue) => {
    switch (value.kind) {
      case 'none':
        return t('diff.none');
      case 'empty':
        return t('diff.empty');
      case 'bool':
        return value.value ? t('diff.yes') : t('diff.no');
      default:
        return value.value;
    }
  };
  return (
    <table className="audit-diff">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('diff.field')}</th>
          <th scope="col">{t('diff.before')}</th>
          <th scope="col">{t('diff.after')}</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.field} className={line.changed ? 'audit-diff__changed' : undefined}>
            <th scope="row">
              <code>{line.field}</code>
            </th>
            <td className="audit-diff__before">{text(line.before)}</td>
            <td className="audit-diff__after">{text(line.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
