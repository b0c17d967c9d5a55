import { describe, expect, it } from 'vitest';

import { pickLevel } from './level.ts';

const levels = [
  { status: 'new', buy_margin: '0.03', sell_margin: '0.025' },
  { status: 'gold', buy_margin: '0.015', sell_margin: '0.01' },
];

describe('pickLevel', () => {
  it("picks the level whose status equals the user's", () => {
    expect(pickLevel(levels, 'gold')?.buy_margin).toBe('0.015');
  });

  it.each([['platinum'], [null], [undefined], ['']])('falls back to `new` for %s', (status) => {
    expect(pickLevel(levels, status)?.status).toBe('new');
  });

  it('is undefined when neither the status nor `new` exists', () => {
    expect(pickLevel([{ status: 'gold' }], 'silver')).toBeUndefined();
  });
});
