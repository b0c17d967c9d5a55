import { describe, expect, it } from 'vitest';

import { auditFiltersFromSearch, auditWhere, searchOfAuditFilters } from './filters.ts';

describe('the audit log filters', () => {
  it('read the address, ignoring what they do not know', () => {
    const filters = auditFiltersFromSearch(
      new URLSearchParams('table=roles&actor=%20ann%20&from=2026-11-01&to=2026-02-31&page=2'),
    );
    expect(filters).toEqual({ table: 'roles', actor: 'ann', from: '2026-11-01', to: '' });
    expect(auditFiltersFromSearch(new URLSearchParams('table=transactions')).table).toBe('');
  });

  it('write the address from the first page, without empty filters', () => {
    expect(
      searchOfAuditFilters({ table: '', actor: ' ann ', from: '', to: '2026-11-02' }).toString(),
    ).toBe('actor=ann&to=2026-11-02');
  });

  it('build the engine filter: table, the actor e-mail with wildcards escaped, whole days', () => {
    const where = auditWhere({
      table: 'bank_accounts',
      actor: '50%_off',
      from: '2026-11-01',
      to: '2026-11-01',
    });
    expect(where.table_name).toEqual({ _eq: 'bank_accounts' });
    expect(where.actor).toEqual({ email: { _ilike: '%50\\%\\_off%' } });
    const from = new Date(where.created_at!._gte!);
    const to = new Date(where.created_at!._lt!);
    expect(to.getTime() - from.getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
    expect([from.getHours(), from.getDate()]).toEqual([0, 1]);
    expect(auditWhere({ table: '', actor: '', from: '', to: '' })).toEqual({});
  });
});
