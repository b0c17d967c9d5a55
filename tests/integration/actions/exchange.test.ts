import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SECRET_HEADER } from '@app/actions/app';
import { computeQuote, pickLevel, type CurrencyInfo } from '@app/shared/quote';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from './harness.ts';

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const VALID_IBAN = 'DE89370400440532013000';

const QUOTE = `query ($input: QuoteInput!) {
  quote(input: $input) {
    from to side sendAmount receiveAmount rate marketRate spread
    limits { side currency min max }
    processing { mode at }
    ratesFetchedAt
  }
}`;

const CREATE = `mutation ($input: CreateExchangeInput!) {
  createExchange(input: $input) {
    id number sendAmount receiveAmount rate status
    transaction { id number user_id send_amount receive_amount rate status wallet_address iban }
  }
}`;

describe.each(databaseTargets)('exchange actions through the engine on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  let actionsUrl: string;
  const env = { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS };
  let clockOffsetMs = 0;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, bob });
    stack = await startActionsStack(db, { env, now: () => new Date(Date.now() + clockOffsetMs) });
    actionsUrl = stack.actionsUrl;
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  const graphql = (query: string, variables: Record<string, unknown>, userId?: string) =>
    stack.graphql(query, variables, userId);

  /** computeQuote on the stored rows, as an independent reference. */
  async function expectedQuote(from: string, to: string, amount: string) {
    const currency = async (code: string): Promise<CurrencyInfo> => {
      const { rows } = await db.pool.query<CurrencyInfo>(
        `SELECT code, kind, precision, min_amount::text AS min_amount,
                max_amount::text AS max_amount, enabled FROM currencies WHERE code = $1`,
        [code],
      );
      return rows[0]!;
    };
    const price = async (code: string) => {
      const { rows } = await db.pool.query<{ price: string; fetched_at: Date }>(
        `SELECT price_usdt::text AS price, fetched_at FROM rates WHERE currency_code = $1
          ORDER BY fetched_at DESC LIMIT 1`,
        [code],
      );
      return rows[0]!;
    };
    const levels = await db.pool.query<{ status: string; buy_margin: string; sell_margin: string }>(
      'SELECT status, buy_margin::text AS buy_margin, sell_margin::text AS sell_margin FROM user_levels',
    );
    const [fromPrice, toPrice] = [await price(from), await price(to)];
    const result = computeQuote({
      from: await currency(from),
      to: await currency(to),
      side: 'send',
      amount,
      prices: { from: fromPrice.price, to: toPrice.price },
      pricesFetchedAt: { from: fromPrice.fetched_at, to: toPrice.fetched_at },
      level: pickLevel(levels.rows, 'new')!,
      direction: { enabled: true, window: null },
      now: new Date(),
      maxRateAgeSeconds: TEN_YEARS,
    });
    if (!result.ok) throw new Error(result.error.code);
    return result.quote;
  }

  async function orderRows(userId: string) {
    const { rows } = await db.pool.query<Record<string, string>>(
      `SELECT id, user_id, send_currency, receive_currency, send_amount::text AS send_amount,
              receive_amount::text AS receive_amount, rate::text AS rate, status, wallet_address,
              iban, idempotency_key
         FROM transactions WHERE user_id = $1 ORDER BY number`,
      [userId],
    );
    return rows;
  }

  const orderInput = (overrides: Record<string, unknown> = {}) => ({
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
    ...overrides,
  });

  it('refuses action calls without the shared secret', async () => {
    const body = JSON.stringify({
      action: { name: 'quote' },
      input: { input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: 1 } },
      session_variables: { 'x-hasura-role': 'admin' },
    });
    for (const headers of [{}, { [SECRET_HEADER]: 'wrong-secret-0123456789abc' }] as Array<
      Record<string, string>
    >) {
      const response = await fetch(`${actionsUrl}/actions/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      expect(response.status).toBe(401);
    }
    expect((await fetch(`${actionsUrl}/healthz`)).status).toBe(200);
  });

  it("quotes an anonymous visitor BTC -> USDTTRC20 at computeQuote's figure", async () => {
    const expected = await expectedQuote('BTC', 'USDTTRC20', '0.015');
    const { data, errors } = await graphql(QUOTE, {
      input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.015' },
    });
    expect(errors).toBeUndefined();
    expect(data?.['quote']).toMatchObject({
      from: 'BTC',
      to: 'USDTTRC20',
      side: 'send',
      sendAmount: expected.send,
      receiveAmount: expected.receive,
      rate: expected.rate,
      marketRate: expected.marketRate,
      limits: { side: 'send', currency: 'BTC', min: expected.limits.min, max: expected.limits.max },
      processing: { mode: 'now', at: null },
    });
  });

  it('keeps a numeric literal exact on its way to the handler', async () => {
    // As a float this would be 0.015 and quote; as written it has too many decimals.
    const { errors } = await graphql(
      `
        {
          quote(
            input: { from: "BTC", to: "USDTTRC20", side: "send", amount: 0.0150000000000000001 }
          ) {
            sendAmount
          }
        }
      `,
      {},
    );
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'too-many-decimals', maxDecimals: 8 });
  });

  it('refuses a quote on a stale rate with its code', async () => {
    env.QUOTE_MAX_RATE_AGE_SECONDS = 60;
    clockOffsetMs = 3_600_000;
    try {
      const { data, errors } = await graphql(QUOTE, {
        input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.015' },
      });
      expect(data?.['quote'] ?? null).toBeNull();
      expect(errors?.[0]?.extensions['code']).toBe('stale-rate');
      expect(errors?.[0]?.message).toMatch(/rate is \d+ s old/);
    } finally {
      env.QUOTE_MAX_RATE_AGE_SECONDS = TEN_YEARS;
      clockOffsetMs = 0;
    }
  });

  it('refuses a quote below the minimum with its code', async () => {
    const { errors } = await graphql(QUOTE, {
      input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.0001' },
    });
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'amount-below-min', currency: 'BTC' });
  });

  it('creates one order with server-computed amounts; client amounts are refused', async () => {
    // A client that tries to send its own amounts is refused by the engine (unknown field).
    const bogus = await graphql(
      CREATE,
      { input: { ...orderInput(), sendAmount: '0.015', receiveAmount: '999999', rate: '1' } },
      alice,
    );
    expect(bogus.errors?.[0]?.extensions['code']).toBe('validation-failed');
    expect(await orderRows(alice)).toHaveLength(0);

    const expected = await expectedQuote('BTC', 'USDTTRC20', '0.015');
    const input = orderInput();
    const { data, errors } = await graphql(CREATE, { input }, alice);
    expect(errors).toBeUndefined();
    const created = data?.['createExchange'] as Record<string, unknown>;
    expect(created).toMatchObject({
      sendAmount: expected.send,
      receiveAmount: expected.receive,
      rate: expected.rate,
      status: 'waiting_for_operator',
    });
    const rows = await orderRows(alice);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: created['id'],
      user_id: alice,
      send_currency: 'BTC',
      receive_currency: 'USDTTRC20',
      send_amount: expected.send,
      receive_amount: expected.receive,
      rate: expected.rate,
      wallet_address: TRC20_ADDRESS,
      iban: null,
      idempotency_key: input.idempotencyKey,
    });
    // The relationship reads the order with the user's permissions.
    expect(created['transaction']).toMatchObject({
      id: created['id'],
      user_id: alice,
      send_amount: expected.send,
      status: 'waiting_for_operator',
    });
    const history = await db.pool.query<{ to_status: string; changed_by: string }>(
      'SELECT to_status, changed_by FROM transaction_status_history WHERE transaction_id = $1',
      [created['id']],
    );
    expect(history.rows).toEqual([{ to_status: 'waiting_for_operator', changed_by: alice }]);
  });

  it('returns the same order for the same idempotency key', async () => {
    const input = orderInput({ amount: '0.02', idempotencyKey: `double-click-${randomUUID()}` });
    const [first, second] = await Promise.all([
      graphql(CREATE, { input }, bob),
      graphql(CREATE, { input }, bob),
    ]);
    expect(first.errors).toBeUndefined();
    expect(second.errors).toBeUndefined();
    const third = await graphql(CREATE, { input }, bob);
    const ids = [first, second, third].map(
      (result) => (result.data?.['createExchange'] as { id: string }).id,
    );
    expect(new Set(ids).size).toBe(1);
    expect(await orderRows(bob)).toHaveLength(1);
  });

  it('refuses a missing agreement, a bad TRC20 address and a bad IBAN; writes nothing', async () => {
    const before = (await orderRows(alice)).length;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ agreeAml: false }, 'agreeAml', 'must-agree'],
      [{ agreeTerms: false }, 'agreeTerms', 'must-agree'],
      [{ email: '' }, 'email', 'required'],
      [
        { walletAddress: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeD' },
        'walletAddress',
        'invalid-wallet-address',
      ],
      [
        { walletAddress: '0xde709f2102306220921060314715629080e2fb77' },
        'walletAddress',
        'invalid-wallet-address',
      ],
      [{ to: 'EUR', walletAddress: null, iban: 'DE89370400440532013001' }, 'iban', 'invalid-iban'],
      [{ to: 'EUR', walletAddress: null }, 'iban', 'required'],
    ];
    for (const [overrides, field, problem] of cases) {
      const { data, errors } = await graphql(CREATE, { input: orderInput(overrides) }, alice);
      expect(data?.['createExchange'] ?? null).toBeNull();
      expect(errors?.[0]?.extensions['code'], field).toBe('validation-failed');
      expect(errors?.[0]?.extensions['fields'], field).toMatchObject({ [field]: problem });
    }
    expect(await orderRows(alice)).toHaveLength(before);
  });

  it('accepts a valid IBAN when the user receives fiat', async () => {
    const { data, errors } = await graphql(
      CREATE,
      {
        input: orderInput({ to: 'EUR', walletAddress: null, iban: 'de89 3704 0044 0532 0130 00' }),
      },
      alice,
    );
    expect(errors).toBeUndefined();
    const created = data?.['createExchange'] as { transaction: { iban: string } };
    expect(created.transaction.iban).toBe(VALID_IBAN);
  });

  it('has no createExchange for anonymous visitors', async () => {
    const { data, errors } = await graphql(CREATE, { input: orderInput() });
    expect(data ?? null).toBeNull();
    expect(errors?.[0]?.extensions['code']).toBe('validation-failed');
    expect(errors?.[0]?.message).toContain('createExchange');
  });

  it('selects the returned transaction with the user role: hidden columns are refused', async () => {
    const { errors } = await graphql(
      `
        mutation ($input: CreateExchangeInput!) {
          createExchange(input: $input) {
            id
            transaction {
              id
              idempotency_key
            }
          }
        }
      `,
      { input: orderInput() },
      alice,
    );
    expect(errors?.[0]?.extensions['code']).toBe('validation-failed');
    expect(errors?.[0]?.message).toContain('idempotency_key');
  });
});
