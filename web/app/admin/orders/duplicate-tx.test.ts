import { describe, expect, it } from 'vitest';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';

import { duplicateWarningOf, warnsAbout } from './duplicate-tx.tsx';

const refused = (extensions: Record<string, unknown>) =>
  new GraphqlRequestError([
    { message: 'already recorded', extensions: { code: 'duplicate-tx-id', ...extensions } },
  ]);

describe('the duplicate tx id warning', () => {
  it('reads the other records from the refusal, skipping malformed ones', () => {
    const warning = duplicateWarningOf(
      refused({
        network: 'TRC20',
        duplicates: [
          { kind: 'order', id: 'a', number: '100001', field: 'payout' },
          { kind: 'withdrawal', id: 'b' },
          { kind: 'order', id: 'c' },
          'junk',
        ],
      }),
      '  0xabc ',
    );
    expect(warning).toEqual({
      txId: '0xabc',
      network: 'TRC20',
      duplicates: [
        { kind: 'order', id: 'a', number: '100001', field: 'payout' },
        { kind: 'withdrawal', id: 'b' },
      ],
    });
  });

  it('is no warning for any other failure', () => {
    const other = new GraphqlRequestError([{ message: 'x', extensions: { code: 'not-found' } }]);
    expect(duplicateWarningOf(other, 'tx')).toBeNull();
    expect(duplicateWarningOf(new TypeError('Failed to fetch'), 'tx')).toBeNull();
  });

  it('holds only for the id it was about: an edited id is checked again', () => {
    const warning = duplicateWarningOf(refused({ duplicates: [] }), 'tx-1');
    expect(warnsAbout(warning, ' tx-1 ')).toBe(true);
    expect(warnsAbout(warning, 'tx-2')).toBe(false);
    expect(warnsAbout(null, 'tx-1')).toBe(false);
  });
});
