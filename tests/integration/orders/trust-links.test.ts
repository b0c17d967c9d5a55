import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { orderLinkToken } from '@app/actions/orders/link-token';

import { databaseTargets } from '../../support/databases.ts';

import {
  BTC_ADDRESS,
  BY_LINK,
  CHECK,
  CREATE,
  DEPOSIT,
  IBAN,
  LINK_SECRET,
  OTHER_BTC_ADDRESS,
  TRC20_ADDRESS,
} from './trust-documents.ts';
import { useTrustWorld } from './trust-harness.ts';

/*
 * Issue 10's order fields and public reads through the real engine and actions service
 * (decision 015): the memo and refund fields at creation, secret links and the public
 * requisites check.
 */

describe.each(databaseTargets)('order trust paths on $name', (target) => {
  const world = useTrustWorld(target);
  const { alice, graphql, ok, refused, order, create, awaitingPayment } = world;

  it('checks the memo and refund fields at creation', async () => {
    const refused1 = await refused(
      graphql(
        CREATE,
        {
          input: {
            from: 'BTC',
            to: 'USDTTRC20',
            side: 'send',
            amount: '0.015',
            email: 'alice@example.com',
            fullName: 'Alice Example',
            walletAddress: TRC20_ADDRESS,
            reason: 'Savings',
            agreeTerms: true,
            agreeAml: true,
            idempotencyKey: randomUUID(),
            refundAddress: TRC20_ADDRESS,
          },
        },
        alice,
      ),
    );
    expect(refused1).toMatchObject({
      code: 'validation-failed',
      fields: { refundAddress: 'invalid-wallet-address' },
    });
    const id = await create({ refundAddress: BTC_ADDRESS, payoutMemo: '123456' });
    expect(await order(id)).toMatchObject({ refund_address: BTC_ADDRESS, payout_memo: '123456' });
    // Paying by bank: the refund goes to an IBAN.
    const eur = await create({
      from: 'EUR',
      to: 'USDTTRC20',
      amount: '500',
      refundAddress: 'DE89 3704 0044 0532 0130 00',
    });
    expect((await order(eur))['refund_address']).toBe(IBAN);
  });

  it('opens an order by its secret link only, read-only and without payment details', async () => {
    const id = await awaitingPayment();
    const other = await awaitingPayment();
    const token = orderLinkToken(LINK_SECRET, id);
    const data = await ok(graphql(BY_LINK, { token }));
    const linked = data['orderByLink'] as Record<string, unknown>;
    expect(linked).toMatchObject({ id, status: 'waiting_for_payment', sendAmount: '0.01500000' });
    expect(linked['payBy']).not.toBeNull();
    expect(JSON.stringify(data)).not.toContain(DEPOSIT);
    // Another order's token shows that order only.
    const otherData = await ok(graphql(BY_LINK, { token: orderLinkToken(LINK_SECRET, other) }));
    expect((otherData['orderByLink'] as { id: string }).id).toBe(other);
    // An altered token, another key's token, garbage: not found.
    const altered = `${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}${token.slice(-1)}`;
    for (const bad of [
      altered,
      orderLinkToken('another-secret-0123456789abcdef', id),
      'x',
      `${token}x`,
    ]) {
      expect(await refused(graphql(BY_LINK, { token: bad }))).toMatchObject({
        code: 'not-found',
      });
    }
  });

  it("answers whether an address or IBAN is really the service's", async () => {
    await awaitingPayment();
    const check = async (value: string) =>
      (await ok(graphql(CHECK, { value })))['checkRequisites'] as Record<string, unknown>;
    expect(await check(DEPOSIT)).toMatchObject({
      verdict: 'active',
      kind: 'deposit_address',
      currency: 'BTC',
    });
    expect(await check(OTHER_BTC_ADDRESS)).toMatchObject({ verdict: 'unknown', kind: null });

    const { rows } = await world.db.pool.query<{ id: string }>(
      `INSERT INTO bank_accounts (beneficiary, account_number, swift_bic, bank_address, currency_code)
       VALUES ('Exchange Ltd', 'LT121000011101001000', 'HABALT22', 'Vilnius', 'EUR') RETURNING id`,
    );
    expect(await check('lt12 1000 0111 0100 1000')).toMatchObject({
      value: 'LT121000011101001000',
      verdict: 'active',
      kind: 'bank_account',
      currency: 'EUR',
    });
    await world.db.pool.query('UPDATE bank_accounts SET is_active = false WHERE id = $1', [
      rows[0]!.id,
    ]);
    expect(await check('LT121000011101001000')).toMatchObject({ verdict: 'retired' });
  });
});
