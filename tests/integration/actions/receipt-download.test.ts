import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { orderLinkToken } from '@app/actions/orders/link-token';
import { receiptDownloadToken } from '@app/actions/receipts/download-token';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type GraphqlBody,
} from './harness.ts';

/*
 * A receipt Telegram downloads (decision 036) through the engine: `orderReceiptLink` gives the
 * owner of a completed order a 10-minute URL, `orderReceiptPdfByToken` (anonymous) answers its
 * PDF. Someone else's order, an unfinished one, a token past its time and a forged one are
 * refused, and no PDF comes back for them.
 */

const LINK = `mutation ($id: uuid!) { orderReceiptLink(transactionId: $id) { url filename expiresAt } }`;
const BY_TOKEN = `query ($token: String!) {
  orderReceiptPdfByToken(token: $token) { filename contentBase64 }
}`;
const SECRET = 'receipt-download-test-secret-0123456789';
const WEB = 'https://exchange.example';
const TX_ID = 'payout-tx-receipt-download-1';

describe.each(databaseTargets)('receipt download tokens on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  let now = new Date('2026-11-20T10:00:00Z');
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, bob });
    stack = await startActionsStack(db, {
      env: {
        ACTIONS_SECRET,
        QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS,
        ORDER_LINK_SECRET: SECRET,
        PUBLIC_WEB_URL: WEB,
      },
      now: () => now,
    });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  /** An order of `owner`, taken to `status` as the operator would. */
  async function order(owner: string, status: 'completed' | 'paid' = 'completed') {
    const { rows } = await db.pool.query<{ id: string; number: string }>(
      `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                 receive_amount, rate, email, full_name, wallet_address, reason)
       VALUES ($1, 'BTC', 'USDTTRC20', 0.015, 1400.5, 93366.6666, 'alice@example.com', 'Alice',
               'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', 'Savings')
       RETURNING id, number::text AS number`,
      [owner],
    );
    const { id, number } = rows[0]!;
    const step = (set: string) =>
      db.pool.query(`UPDATE transactions SET ${set} WHERE id = $1`, [id]);
    await step(`status = 'waiting_for_payment', deposit_address = 'bc1qreceiptdownload'`);
    await step(`status = 'paid'`);
    if (status === 'completed') await step(`status = 'completed', payout_tx_id = '${TX_ID}'`);
    return { id, number };
  }

  const codeOf = (body: GraphqlBody) => body.errors?.[0]?.extensions['code'];
  const tokenOf = (url: string) => url.slice(`${WEB}/receipt-download/`.length);

  async function refusedPdf(token: string): Promise<unknown> {
    const body = await stack.graphql(BY_TOKEN, { token });
    expect(body.data?.['orderReceiptPdfByToken'] ?? null).toBeNull();
    return codeOf(body);
  }

  it('gives the owner a 10-minute URL whose token anyone may turn into the PDF', async () => {
    const { id, number } = await order(alice);
    const body = await stack.graphql(LINK, { id }, alice);
    expect(body.errors).toBeUndefined();
    const link = body.data!['orderReceiptLink'] as {
      url: string;
      filename: string;
      expiresAt: string;
    };
    expect(link.url).toMatch(/^https:\/\/exchange\.example\/receipt-download\/[A-Za-z0-9_-]{48}$/);
    expect(link.filename).toBe(`receipt-${number}.pdf`);
    expect(link.expiresAt).toBe('2026-11-20T10:10:00.000Z');

    // Telegram fetches it without a session: role anonymous.
    const pdf = await stack.graphql(BY_TOKEN, { token: tokenOf(link.url) });
    expect(pdf.errors).toBeUndefined();
    const { filename, contentBase64 } = pdf.data!['orderReceiptPdfByToken'] as {
      filename: string;
      contentBase64: string;
    };
    expect(filename).toBe(`receipt-${number}.pdf`);
    expect(Buffer.from(contentBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    // Two links for one order are two different tokens a minute apart.
    now = new Date(now.getTime() + 60_000);
    const again = (await stack.graphql(LINK, { id }, alice)).data!['orderReceiptLink'] as {
      url: string;
    };
    expect(again.url).not.toBe(link.url);
  });

  it('refuses someone else’s order, an unknown one and anonymous callers, without a token', async () => {
    const { id } = await order(alice);
    const others = await stack.graphql(LINK, { id }, bob);
    expect(others.data?.['orderReceiptLink'] ?? null).toBeNull();
    expect(codeOf(others)).toBe('not-found');
    expect(codeOf(await stack.graphql(LINK, { id: randomUUID() }, alice))).toBe('not-found');
    // Not in the anonymous role's schema at all.
    const anonymous = await stack.graphql(LINK, { id });
    expect(anonymous.data?.['orderReceiptLink'] ?? null).toBeNull();
    expect(anonymous.errors?.length).toBeGreaterThan(0);
  });

  it('refuses an order that is not completed yet', async () => {
    const { id, number } = await order(alice, 'paid');
    const body = await stack.graphql(LINK, { id }, alice);
    expect(body.data?.['orderReceiptLink'] ?? null).toBeNull();
    expect(codeOf(body)).toBe('invalid-transition');
    expect(body.errors?.[0]?.message).toBe(
      `Order ${number} is paid; a receipt is available once the order is completed.`,
    );
    // A token made for it anyway (with the secret) still serves no receipt.
    const token = receiptDownloadToken(SECRET, id, new Date(now.getTime() + 60_000));
    expect(await refusedPdf(token)).toBe('invalid-transition');
  });

  it('serves a token until its ten minutes are up, then never again', async () => {
    const { id } = await order(alice);
    const link = (await stack.graphql(LINK, { id }, alice)).data!['orderReceiptLink'] as {
      url: string;
    };
    const token = tokenOf(link.url);
    const issued = now;
    try {
      now = new Date(issued.getTime() + 9 * 60_000 + 59_000);
      expect((await stack.graphql(BY_TOKEN, { token })).errors).toBeUndefined();
      now = new Date(issued.getTime() + 10 * 60_000);
      expect(await refusedPdf(token)).toBe('link-expired');
      now = new Date(issued.getTime() + 24 * 3600_000);
      expect(await refusedPdf(token)).toBe('link-expired');
    } finally {
      now = issued;
    }
  });

  it('refuses forged tokens as not-found', async () => {
    const { id } = await order(alice);
    const link = (await stack.graphql(LINK, { id }, alice)).data!['orderReceiptLink'] as {
      url: string;
    };
    const token = tokenOf(link.url);
    const { id: bobs } = await order(bob);
    const later = new Date(now.getTime() + 3600_000);
    const forged = [
      // One character of the MAC changed.
      `${token.slice(0, 40)}${token[40] === 'A' ? 'B' : 'A'}${token.slice(41)}`,
      // Another order's id (or a later expiry) under this token's MAC.
      `${receiptDownloadToken(SECRET, bobs, later).slice(0, 27)}${token.slice(27)}`,
      `${receiptDownloadToken(SECRET, id, later).slice(0, 27)}${token.slice(27)}`,
      // Made under another secret, or the order's secret link passed off as a download token.
      receiptDownloadToken('another-secret-0123456789-abcdef', id, later),
      orderLinkToken(SECRET, id),
      'not-a-token',
      `${token}A`,
    ];
    for (const bad of forged) expect(await refusedPdf(bad), bad).toBe('not-found');
  });
});
