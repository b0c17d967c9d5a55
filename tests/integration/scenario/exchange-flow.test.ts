import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import { ADMIN, dataOf, startProduct, type Product, type Session } from './harness.ts';

/*
 * Issue 5's acceptance scenario, through the auth service's HTTP API and the engine's GraphQL
 * only: quick-auth, quote, order, requisites seen live, payment, payout, the referrer's bonus,
 * withdrawals; for a crypto direction and for a fiat one paid by bank transfer.
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const DEPOSIT_BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

const QUOTE = `query ($input: QuoteInput!) {
  quote(input: $input) { sendAmount receiveAmount rate processing { mode } }
}`;
const CREATE = `mutation ($input: CreateExchangeInput!) {
  createExchange(input: $input) { id number sendAmount receiveAmount status }
}`;
const WATCH = `subscription ($id: uuid!) {
  transactions_by_pk(id: $id) {
    status deposit_address payment_reference payout_tx_id
    bank_account { beneficiary account_number swift_bic bank_address }
  }
}`;
const STATISTICS = `query {
  affiliate_statistics {
    accumulated_usdt available_usdt referral_transactions referral_turnover_usdt
    earnings_per_transaction_usdt total_referrals
  }
  referral_history(order_by: { created_at: asc }) { referral transaction_number amount_usdt }
}`;
const WITHDRAW = `mutation ($amount: numeric!, $wallet: String!) {
  requestBonusWithdrawal(amount: $amount, walletAddress: $wallet) { id amountUsdt status availableUsdt }
}`;

interface Watched {
  transactions_by_pk: {
    status: string;
    deposit_address: string | null;
    payment_reference: string | null;
    payout_tx_id: string | null;
    bank_account: Record<string, string> | null;
  } | null;
}

interface OrderRequest {
  from: string;
  to: string;
  amount: string;
  walletAddress?: string;
  iban?: string;
}

async function createOrder(visitor: Session, order: OrderRequest) {
  const { from, to, amount, ...payout } = order;
  const created = dataOf(
    await visitor.graphql(CREATE, {
      input: {
        from,
        to,
        side: 'send',
        amount,
        email: 'visitor@example.com',
        fullName: 'Vera Visitor',
        reason: 'Savings',
        agreeTerms: true,
        agreeAml: true,
        idempotencyKey: randomUUID(),
        ...payout,
      },
    }),
  )['createExchange'] as { id: string; number: string; sendAmount: string; status: string };
  return created;
}

/**
 * Staff take an order from requisites to completed; returns the payout tx id. `seen` runs
 * once the requisites are supplied and must return once the user has them.
 */
async function completeAsStaff(
  manager: Session,
  id: string,
  requisites: Record<string, unknown>,
  seen: () => Promise<unknown> = async () => {},
) {
  const step = async (mutation: string, variables: Record<string, unknown>) =>
    dataOf(await manager.graphql(mutation, { id, ...variables }, 'manager'));
  await step(
    `mutation ($id: uuid!, $address: String, $bank: uuid) {
       supplyRequisites(transactionId: $id, depositAddress: $address, bankAccountId: $bank) { status }
     }`,
    requisites,
  );
  await seen();
  await step('mutation ($id: uuid!) { confirmPayment(transactionId: $id) { status } }', {});
  const txId = `payout-${id.slice(0, 8)}`;
  await step(
    'mutation ($id: uuid!, $tx: String!) { completeExchange(transactionId: $id, payoutTxId: $tx) { status } }',
    { tx: txId },
  );
  return txId;
}

describe.each(databaseTargets)('the exchange scenario on $name', (target) => {
  let db: TestDatabase;
  let product: Product;
  let referrer: Session;
  let manager: Session;
  let referralName: string;

  beforeAll(async () => {
    db = await target.create();
    product = await startProduct(db);
    const admin = await product.login(ADMIN.email, ADMIN.password);
    referrer = await product.register('rita.referrer@example.com');
    await product.register('max.manager@example.com');
    manager = await product.appointManager(admin, 'max.manager@example.com');
    const me = dataOf(
      await referrer.graphql(
        'query ($id: uuid!) { portal_users_by_pk(id: $id) { referral_name } }',
        {
          id: referrer.userId,
        },
      ),
    );
    referralName = (me['portal_users_by_pk'] as { referral_name: string }).referral_name;
  });
  afterAll(async () => {
    await product?.close();
    await db?.dispose();
  });

  it('takes a referred visitor from quick-auth to a completed crypto order, and pays the referrer', async () => {
    const visitor = await product.quickAuth('vera.visitor@example.com', referralName);

    const quoted = dataOf(
      await product.graphql(QUOTE, {
        input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.1' },
      }),
    )['quote'] as { sendAmount: string; receiveAmount: string };
    const order = await createOrder(visitor, {
      from: 'BTC',
      to: 'USDTTRC20',
      amount: '0.1',
      walletAddress: TRC20_ADDRESS,
    });
    // Priced as the visitor was quoted (anonymous and a new account share the level `new`).
    expect(order).toMatchObject({
      sendAmount: quoted.sendAmount,
      receiveAmount: quoted.receiveAmount,
      status: 'waiting_for_operator',
    });
    expect(Number(quoted.sendAmount)).toBe(0.1);

    const watch = product.subscribe<Watched>(visitor, WATCH, { id: order.id });
    await watch.next((value) => value.transactions_by_pk?.status === 'waiting_for_operator');

    const txId = await completeAsStaff(manager, order.id, { address: DEPOSIT_BTC }, async () => {
      const awaiting = await watch.next(
        (value) => value.transactions_by_pk?.status === 'waiting_for_payment',
      );
      expect(awaiting.transactions_by_pk).toMatchObject({ deposit_address: DEPOSIT_BTC });
    });
    const completed = await watch.next((value) => value.transactions_by_pk?.status === 'completed');
    expect(completed.transactions_by_pk?.payout_tx_id).toBe(txId);
    watch.stop();

    // 0.1 BTC at the 98,500 USDT market price, 0.5 % to the referrer.
    const stats = dataOf(await referrer.graphql(STATISTICS));
    expect(stats['affiliate_statistics']).toEqual([
      {
        accumulated_usdt: '49.250000',
        available_usdt: '49.250000',
        referral_transactions: 1,
        referral_turnover_usdt: '9850.000000',
        earnings_per_transaction_usdt: '49.250000',
        total_referrals: 1,
      },
    ]);
    expect(stats['referral_history']).toEqual([
      {
        referral: 've***@example.com',
        transaction_number: order.number,
        amount_usdt: '49.250000',
      },
    ]);
    // The visitor sees no one's affiliate figures but their own (none).
    expect(dataOf(await visitor.graphql(STATISTICS))['referral_history']).toEqual([]);

    const tooEarly = await referrer.graphql(WITHDRAW, { amount: '100', wallet: TRC20_ADDRESS });
    expect(tooEarly.errors?.[0]?.extensions['code']).toBe('insufficient-balance');

    // Two more referred orders bring the balance to 147.75 USDT.
    for (let index = 0; index < 2; index += 1) {
      const next = await createOrder(visitor, {
        from: 'BTC',
        to: 'USDTTRC20',
        amount: '0.1',
        walletAddress: TRC20_ADDRESS,
      });
      await completeAsStaff(manager, next.id, { address: DEPOSIT_BTC });
    }
    const paidOut = dataOf(
      await referrer.graphql(WITHDRAW, { amount: '100', wallet: TRC20_ADDRESS }),
    );
    expect(paidOut['requestBonusWithdrawal']).toMatchObject({
      amountUsdt: '100',
      status: 'pending',
      availableUsdt: '47.750000',
    });
    const second = await referrer.graphql(WITHDRAW, { amount: '100', wallet: TRC20_ADDRESS });
    expect(second.errors?.[0]).toMatchObject({
      message: 'The amount exceeds your available bonus balance of 47.75 USDT.',
      extensions: { code: 'insufficient-balance' },
    });
    const belowMinimum = await referrer.graphql(WITHDRAW, { amount: '40', wallet: TRC20_ADDRESS });
    expect(belowMinimum.errors?.[0]?.extensions['code']).toBe('below-minimum');

    // Staff pay the withdrawal; the referrer sees it paid.
    const withdrawalId = (paidOut['requestBonusWithdrawal'] as { id: string }).id;
    dataOf(
      await manager.graphql(
        `mutation ($id: uuid!) {
           processBonusWithdrawal(withdrawalId: $id, outcome: "paid", payoutTxId: "trx-payout-1") { status }
         }`,
        { id: withdrawalId },
        'manager',
      ),
    );
    const mine = dataOf(
      await referrer.graphql('query { bonus_withdrawals { amount_usdt status payout_tx_id } }'),
    );
    expect(mine['bonus_withdrawals']).toEqual([
      { amount_usdt: '100', status: 'paid', payout_tx_id: 'trx-payout-1' },
    ]);
  });

  it('runs a fiat order paid by bank transfer, with the requisites seen live', async () => {
    const visitor = await product.quickAuth('fiona.fiat@example.com', referralName);
    const account = dataOf(
      await manager.graphql(
        `mutation {
           insert_bank_accounts_one(object: {
             label: "EUR main", beneficiary: "Exchange Services OU", account_number: "EE382200221020145685",
             swift_bic: "HABAEE2X", bank_address: "Liivalaia 8, Tallinn", currency_code: "EUR"
           }) { id }
         }`,
        {},
        'manager',
      ),
    )['insert_bank_accounts_one'] as { id: string };

    const order = await createOrder(visitor, {
      from: 'EUR',
      to: 'BTC',
      amount: '1000',
      walletAddress: BTC_ADDRESS,
    });
    const watch = product.subscribe<Watched>(visitor, WATCH, { id: order.id });
    await watch.next((value) => value.transactions_by_pk?.status === 'waiting_for_operator');

    await completeAsStaff(manager, order.id, { bank: account.id }, async () => {
      const awaiting = await watch.next(
        (value) => value.transactions_by_pk?.status === 'waiting_for_payment',
      );
      expect(awaiting.transactions_by_pk).toMatchObject({
        payment_reference: `EX-${order.number}`,
        bank_account: {
          beneficiary: 'Exchange Services OU',
          account_number: 'EE382200221020145685',
          swift_bic: 'HABAEE2X',
          bank_address: 'Liivalaia 8, Tallinn',
        },
      });
    });
    await watch.next((value) => value.transactions_by_pk?.status === 'completed');
    watch.stop();

    // 1000 EUR at 1.16 USDT, 0.5 %: 5.8 USDT more for the referrer.
    const history = dataOf(await referrer.graphql(STATISTICS))['referral_history'] as Array<{
      transaction_number: string;
      amount_usdt: string;
    }>;
    expect(history.at(-1)).toMatchObject({
      transaction_number: order.number,
      amount_usdt: '5.800000',
    });
  });
});
