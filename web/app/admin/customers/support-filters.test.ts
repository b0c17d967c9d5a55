import { describe, expect, it } from 'vitest';

import {
  filtersFromSearch,
  isDay,
  orderReference,
  searchOfFilters,
  supportWhere,
} from './support-filters.ts';

describe('support request filters', () => {
  it('read the address, ignoring what they do not know', () => {
    expect(filtersFromSearch(new URLSearchParams('handled=no&from=2026-11-01&page=2'))).toEqual({
      handled: 'no',
      from: '2026-11-01',
      to: '',
    });
    expect(filtersFromSearch(new URLSearchParams('handled=maybe&from=2026-02-30&to=x'))).toEqual({
      handled: 'all',
      from: '',
      to: '',
    });
  });

  it('write the address from the first page', () => {
    expect(searchOfFilters({ handled: 'yes', from: '', to: '2026-11-02' }).toString()).toBe(
      'handled=yes&to=2026-11-02',
    );
    expect(searchOfFilters({ handled: 'all', from: '', to: '' }).toString()).toBe('');
  });

  it('become a where: handled, and from one local midnight to the one after the last day', () => {
    expect(supportWhere({ handled: 'all', from: '', to: '' })).toEqual({});
    expect(supportWhere({ handled: 'no', from: '2026-11-01', to: '2026-11-01' })).toEqual({
      handled: { _eq: false },
      created_at: {
        _gte: new Date(2026, 10, 1).toISOString(),
        _lt: new Date(2026, 10, 2).toISOString(),
      },
    });
    expect(supportWhere({ handled: 'yes', from: '', to: '2026-12-31' })).toEqual({
      handled: { _eq: true },
      created_at: { _lt: new Date(2027, 0, 1).toISOString() },
    });
  });

  it('know real days', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2025-02-29')).toBe(false);
    expect(isDay('2025-1-01')).toBe(false);
  });
});

describe('orderReference', () => {
  it('finds an order number or an order id in what the customer typed', () => {
    expect(orderReference('1042')).toEqual({ number: '1042' });
    expect(orderReference(' #1042 ')).toEqual({ number: '1042' });
    expect(orderReference('6F1C2D3E-1111-4222-8333-944455556666')).toEqual({
      id: '6f1c2d3e-1111-4222-8333-944455556666',
    });
    expect(orderReference('my order from Monday')).toBeUndefined();
    expect(orderReference('0')).toBeUndefined();
    expect(orderReference(null)).toBeUndefined();
  });
});
