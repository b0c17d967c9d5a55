import { describe, expect, it } from 'vitest';

import {
  containsPattern,
  endOfDay,
  hasOtherFilters,
  parseFilters,
  queueOrderBy,
  queueWhere,
  searchWithFilters,
  startOfDay,
} from './queue-filters.ts';

const parse = (query: string) => parseFilters(new URLSearchParams(query));

describe('the queue filters in the address', () => {
  it('reads every filter, and the defaults when there are none', () => {
    expect(parse('')).toEqual({
      status: null,
      send: null,
      receive: null,
      from: null,
      to: null,
      email: null,
      number: null,
      late: false,
      sort: 'newest',
    });
    expect(
      parse(
        'status=paid&send=btc&receive=USDTTRC20&from=2025-03-01&to=2025-03-31&email=%20bob%40ex%20&number=0042&sort=number-asc',
      ),
    ).toEqual({
      status: 'paid',
      send: 'BTC',
      receive: 'USDTTRC20',
      from: '2025-03-01',
      to: '2025-03-31',
      email: 'bob@ex',
      number: '42',
      late: false,
      sort: 'number-asc',
    });
    expect(parse('status=on_hold&late=1&sort=due')).toMatchObject({
      status: 'on_hold',
      late: true,
      sort: 'due',
    });
    for (const status of [
      'needs_user_action',
      'refund_in_progress',
      'refunded',
      'expired',
    ] as const)
      expect(parse(`status=${status}`).status).toBe(status);
  });

  it('leaves out what is malformed', () => {
    expect(
      parse(
        'status=lost&send=b-t-c&from=2025-02-30&to=yesterday&number=12a&sort=random&late=yes&email=' +
          'x'.repeat(255),
      ),
    ).toEqual(parse(''));
  });

  it('writes filters back, dropping the page and the default sort, keeping the rest', () => {
    const current = new URLSearchParams('view=orders&order=abc&page=4&status=paid&email=old');
    const next = searchWithFilters(current, {
      ...parse(''),
      status: 'canceled',
      email: 'new@example.com',
      number: '',
    });
    expect(next.toString()).toBe('view=orders&order=abc&status=canceled&email=new%40example.com');
    expect(
      searchWithFilters(new URLSearchParams(), { ...parse(''), sort: 'oldest' }).toString(),
    ).toBe('sort=oldest');
    expect(
      searchWithFilters(new URLSearchParams('late=1'), {
        ...parse(''),
        late: true,
        sort: 'due',
      }).toString(),
    ).toBe('late=1&sort=due');
    expect(
      searchWithFilters(new URLSearchParams('late=1'), { ...parse(''), late: false }).toString(),
    ).toBe('');
  });

  it('tells whether anything but the status narrows the queue', () => {
    expect(hasOtherFilters(parse('status=paid&sort=oldest'))).toBe(false);
    for (const query of [
      'send=BTC',
      'receive=EUR',
      'from=2025-01-01',
      'to=2025-01-01',
      'email=a',
      'number=1',
      'late=1',
    ])
      expect(hasOtherFilters(parse(query))).toBe(true);
  });
});

describe('the queue query', () => {
  it('is everything, newest first, without filters', () => {
    expect(queueWhere(parse(''))).toEqual({});
    expect(queueOrderBy('newest')).toEqual([{ created_at: 'desc' }]);
    expect(queueOrderBy('oldest')).toEqual([{ created_at: 'asc' }]);
    expect(queueOrderBy('number-desc')).toEqual([{ number: 'desc' }]);
    expect(queueOrderBy('number-asc')).toEqual([{ number: 'asc' }]);
    expect(queueOrderBy('due')).toEqual([{ requisites_due_at: 'asc' }, { number: 'asc' }]);
  });

  it('finds late requisites: flagged by the job, or due before the page read the filters', () => {
    const late = {
      status: { _eq: 'waiting_for_operator' },
      _or: [
        { requisites_late_at: { _is_null: false } },
        { requisites_due_at: { _lt: '2025-03-01T10:00:00.000Z' } },
      ],
    };
    expect(queueWhere(parse('late=1'), true, '2025-03-01T10:00:00.000Z')).toEqual({
      _and: [late],
    });
    // With a status tab, both hold (another tab than waiting for the operator finds nothing).
    expect(queueWhere(parse('late=1&status=paid'), true, '2025-03-01T10:00:00.000Z')).toEqual({
      status: { _eq: 'paid' },
      _and: [late],
    });
    // The tabs' counts keep the late filter's own status.
    expect(queueWhere(parse('late=1&status=paid'), false, '2025-03-01T10:00:00.000Z')).toEqual({
      _and: [late],
    });
  });

  it('filters on the indexed columns, the status left out on request', () => {
    const filters = parse(
      'status=waiting_for_operator&send=EUR&receive=BTC&from=2025-03-01&to=2025-03-02&email=50%25_off&number=7',
    );
    const where = {
      send_currency: { _eq: 'EUR' },
      receive_currency: { _eq: 'BTC' },
      created_at: { _gte: startOfDay('2025-03-01'), _lt: endOfDay('2025-03-02') },
      email: { _ilike: '%50\\%\\_off%' },
      number: { _eq: '7' },
    };
    expect(queueWhere(filters)).toEqual({ status: { _eq: 'waiting_for_operator' }, ...where });
    expect(queueWhere(filters, false)).toEqual(where);
    expect(queueWhere(parse('to=2025-03-02')).created_at).toEqual({ _lt: endOfDay('2025-03-02') });
  });

  it('takes whole days in the browser time zone', () => {
    const start = new Date(startOfDay('2025-03-01'));
    const end = new Date(endOfDay('2025-03-01'));
    expect([start.getFullYear(), start.getMonth(), start.getDate(), start.getHours()]).toEqual([
      2025, 2, 1, 0,
    ]);
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours()]).toEqual([
      2025, 2, 2, 0,
    ]);
    expect(new Date(endOfDay('2024-12-31')).getFullYear()).toBe(2025);
  });

  it('escapes what ILIKE would read as a pattern', () => {
    expect(containsPattern('a_b%c\\d')).toBe('%a\\_b\\%c\\\\d%');
  });
});
