import { describe, expect, it } from 'vitest';

import { auditDiff } from './diff.ts';

describe('an audit entry diff', () => {
  it('lists changed fields first, unchanged after, without updated_at', () => {
    const lines = auditDiff(
      { id: 'a', label: 'EUR main', is_active: true, updated_at: '1' },
      { id: 'a', label: 'EUR reserve', is_active: false, updated_at: '2' },
    );
    expect(lines.map((line) => [line.field, line.changed])).toEqual([
      ['label', true],
      ['is_active', true],
      ['id', false],
    ]);
    expect(lines[1]!.before).toEqual({ kind: 'bool', value: true });
  });

  it('keeps numbers exactly as stored and shows a created row whole', () => {
    const lines = auditDiff(null, { buy_rate: '0.123456789012345678901', sell_rate: null });
    expect(lines).toEqual([
      {
        field: 'buy_rate',
        before: { kind: 'none' },
        after: { kind: 'text', value: '0.123456789012345678901' },
        changed: true,
      },
      { field: 'sell_rate', before: { kind: 'none' }, after: { kind: 'empty' }, changed: true },
    ]);
  });

  it('survives rows that are not objects', () => {
    expect(auditDiff('x', [1])).toEqual([]);
  });
});
