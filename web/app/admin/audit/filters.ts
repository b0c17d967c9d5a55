import type { StaffAuditLogQueryVariables } from '@app/client/graphql/generated/administrator.ts';

import { isDay } from '#app/admin/customers/support-filters.ts';
import { containsPattern } from '#app/admin/search-pattern.ts';

/*
 * The audit log's filters, kept in the address (`?table=roles&actor=ann&from=2026-11-01&to=…
 * &page=2`) so a filtered page can be reloaded, shared and paged: which table, whose changes
 * (the actor's e-mail contains the text) and the days, in the reader's time zone, both ends
 * included.
 */

/** The tables the log records (migration 1763740802400), in the order the filter lists them. */
export const AUDITED_TABLES = [
  'bank_accounts',
  'user_custom_carrency',
  'roles',
  'user_levels',
  'affiliate_settings',
  'portal_users',
] as const;

export type AuditedTable = (typeof AUDITED_TABLES)[number];

export const isAuditedTable = (value: unknown): value is AuditedTable =>
  (AUDITED_TABLES as readonly unknown[]).includes(value);

export interface AuditFilters {
  /** One table, or '' for all. */
  table: AuditedTable | '';
  /** Part of the actor's e-mail, or '' for anyone (changes without a session included). */
  actor: string;
  /** `YYYY-MM-DD`, or '' for no bound. */
  from: string;
  to: string;
}

/** The longest actor text kept: an e-mail is at most 254 characters. */
export const ACTOR_MAX = 254;

/** The filters in the address; anything unrecognised is no filter. */
export function auditFiltersFromSearch(search: URLSearchParams): AuditFilters {
  const table = search.get('table');
  const actor = (search.get('actor') ?? '').trim().slice(0, ACTOR_MAX);
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  return {
    table: isAuditedTable(table) ? table : '',
    actor,
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
  };
}

/** The address for `filters`, from the first page. */
export function searchOfAuditFilters(filters: AuditFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.table) search.set('table', filters.table);
  const actor = filters.actor.trim();
  if (actor) search.set('actor', actor);
  if (filters.from) search.set('from', filters.from);
  if (filters.to) search.set('to', filters.to);
  return search;
}

export const hasAuditFilters = (filters: AuditFilters): boolean =>
  filters.table !== '' || filters.actor.trim() !== '' || filters.from !== '' || filters.to !== '';

/** Local midnight of `day` (plus `days`), as the instant the engine compares. */
function startOfDay(day: string, days = 0): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date + days).toISOString();
}

type Where = StaffAuditLogQueryVariables['where'];

/** The `staff_audit_log_bool_exp` of the filters. */
export function auditWhere(filters: AuditFilters): Where {
  const where: Where = {};
  if (filters.table) where.table_name = { _eq: filters.table };
  const actor = filters.actor.trim();
  if (actor) where.actor = { email: { _ilike: containsPattern(actor) } };
  const created: NonNullable<Where['created_at']> = {};
  if (filters.from) created._gte = startOfDay(filters.from);
  if (filters.to) created._lt = startOfDay(filters.to, 1);
  if (filters.from || filters.to) where.created_at = created;
  return where;
}
