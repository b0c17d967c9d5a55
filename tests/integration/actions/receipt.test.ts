import { randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { orderLinkToken } from '@app/actions/orders/link-token';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
  type GraphqlBody,
} from './harness.ts';

/*
 * `orderReceiptPdf` through the engine: who gets a receipt (owner, staff, the secret link) and
 * who gets 'not-found', the refusal before completion, and what the PDF says, read back from
 * its text in each locale.
 */

const RECEIPT_BY_ID = `query ($id: uuid!) {
  orderReceiptPdf(transactionId: $id) { filename contentBase64 }
}`;
const RECEIPT_BY_LINK = `query ($token: String!) {
  orderReceiptPdf(token: $token) { filename contentBase64 }
}`;
const RECEIPT_BY_BOTH = `query ($id: uuid!, $token: String!) {
  orderReceiptPdf(transactionId: $id, token: $token) { filename contentBase64 }
}`;

const LINK_SECRET = 'receipt-test-order-link-secret-0123456789';
const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const IBAN = 'DE89370400440532013000';
// Holds "ff", which the font draws as a ligature: its text must still read back exactly (it
// did not, one run in eight, when a random order id held "ff").
const TX_ID = '7f3a9c2e4b1dff6a0e5c3b9a7d2f4e6c8b0a1d3f5e7c9b2a4d6f8e0c1b3a5d7f';

// ---------------------------------------------------------------------------------------------
// The text of a PDF as pdfkit writes it: objects, Flate streams, Type0 fonts with a ToUnicode
// CMap, and text shown with TJ/Tj in hex glyph codes. One line per text-showing operator.

function pdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const objects = new Map<number, { dict: string; stream: Buffer | null }>();
  for (const match of source.matchAll(/(\d+) 0 obj\s*([\s\S]*?)\bendobj/g)) {
    const body = match[2]!;
    const at = body.search(/\bstream\r?\n/);
    if (at < 0) {
      objects.set(Number(match[1]), { dict: body, stream: null });
      continue;
    }
    const dict = body.slice(0, at);
    const raw = /stream\r?\n([\s\S]*?)\r?\nendstream/.exec(body.slice(at))![1]!;
    const bytes = Buffer.from(raw, 'latin1');
    objects.set(Number(match[1]), {
      dict,
      stream: dict.includes('/FlateDecode') ? inflateSync(bytes) : bytes,
    });
  }
  const streamOf = (ref: number) => objects.get(ref)?.stream?.toString('latin1') ?? '';

  /** A ToUnicode CMap: glyph code (hex) to text. */
  function cmap(text: string): Map<string, string> {
    const map = new Map<string, string>();
    const unicode = (hex: string) =>
      String.fromCharCode(...hex.match(/.{4}/g)!.map((unit) => parseInt(unit, 16)));
    const code = (value: number) => value.toString(16).padStart(4, '0');
    for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
      for (const m of block[1]!.matchAll(
        /<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\[[^\]]*\]|<[0-9a-f]+>)/gi,
      )) {
        const low = parseInt(m[1]!, 16);
        const high = parseInt(m[2]!, 16);
        if (m[3]!.startsWith('[')) {
          // A ligature's target holds several code units, which pdfkit writes spaced
          // (`<0066 0066>` for "ff"); skipping it shifted every later glyph.
          const targets = [...m[3]!.matchAll(/<([0-9a-f\s]+)>/gi)].map((t) =>
            t[1]!.replace(/\s+/g, ''),
          );
          targets.forEach((target, i) => map.set(code(low + i), unicode(target)));
        } else {
          const first = parseInt(m[3]!.slice(1, -1), 16);
          for (let c = low; c <= high; c += 1)
            map.set(code(c), String.fromCharCode(first + c - low));
        }
      }
    }
    for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
      for (const m of block[1]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f\s]+)>/gi)) {
        map.set(m[1]!.toLowerCase().padStart(4, '0'), unicode(m[2]!.replace(/\s+/g, '')));
      }
    }
    return map;
  }

  // The fonts by resource name (/F1 …) of the page resources.
  const fonts = new Map<string, Map<string, string>>();
  for (const { dict } of objects.values()) {
    const resources = /\/Font\s*<<([\s\S]*?)>>/.exec(dict)?.[1];
    if (!resources) continue;
    for (const m of resources.matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
      const font = objects.get(Number(m[2]))?.dict ?? '';
      const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(font)?.[1];
      if (toUnicode) fonts.set(m[1]!, cmap(streamOf(Number(toUnicode))));
    }
  }

  const lines: string[] = [];
  for (const { dict, stream } of objects.values()) {
    if (!stream || /\/(Type|Subtype)\s*\/(XObject|FontFile|Metadata)/.test(dict)) continue;
    const content = stream.toString('latin1');
    if (!/\bBT\b/.test(content)) continue;
    let font = new Map<string, string>();
    const ops = /\/(\w+)\s+[\d.]+\s+Tf|(\[[^\]]*\])\s*TJ|(<[0-9a-f]*>)\s*Tj/gi;
    for (const m of content.matchAll(ops)) {
      if (m[1]) {
        font = fonts.get(m[1]) ?? new Map<string, string>();
        continue;
      }
      const hex = [...(m[2] ?? m[3])!.matchAll(/<([0-9a-f]*)>/gi)].map((h) => h[1]!).join('');
      lines.push((hex.match(/.{4}/g) ?? []).map((c) => font.get(c.toLowerCase()) ?? '?').join(''));
    }
  }
  return lines.join('\n');
}

interface OrderOptions {
  owner: string;
  locale?: 'en' | 'ru' | 'ua';
  from?: string;
  to?: string;
  send?: string;
  receive?: string;
  rate?: string;
  wallet?: string | null;
  iban?: string | null;
  memo?: string | null;
  /** Where the order ends: completed (default) or paid. */
  status?: 'completed' | 'paid';
  /** The user continued with a different amount: what arrived, and the settlement. */
  settled?: { received: string; receive: string; rate: string };
}

describe.each(databaseTargets)('order receipts (orderReceiptPdf) on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  const alice = randomUUID();
  const bob = randomUUID();
  const managerId = randomUUID();
  const adminId = randomUUID();
  const owner: Caller = { userId: alice, role: 'user' };
  const other: Caller = { userId: bob, role: 'user' };
  const manager: Caller = { userId: managerId, role: 'manager' };
  const administrator: Caller = { userId: adminId, role: 'administrator' };

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { alice, bob, manager: managerId, admin: adminId });
    stack = await startActionsStack(db, {
      env: {
        ACTIONS_SECRET,
        QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS,
        ORDER_LINK_SECRET: LINK_SECRET,
      },
    });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  /** An order written directly and taken through its steps as the operator would. */
  async function order(options: OrderOptions): Promise<{ id: string; number: string }> {
    const to = options.to ?? 'USDTTRC20';
    const { rows } = await db.pool.query<{ id: string; number: string }>(
      `INSERT INTO transactions (user_id, send_currency, receive_currency, send_amount,
                                 receive_amount, rate, email, full_name, wallet_address, iban,
                                 payout_memo, reason, locale)
       VALUES ($1, $2, $3, $4, $5, $6, 'alice@example.com', 'Alice Example', $7, $8, $9,
               'Savings', $10)
       RETURNING id, number::text AS number`,
      [
        options.owner,
        options.from ?? 'BTC',
        to,
        options.send ?? '0.01500000',
        options.receive ?? '1400.500000',
        options.rate ?? '93366.6666',
        options.wallet === undefined ? TRC20_ADDRESS : options.wallet,
        options.iban ?? null,
        options.memo ?? null,
        options.locale ?? 'en',
      ],
    );
    const { id, number } = rows[0]!;
    const step = (sql: string, values: unknown[] = []) =>
      db.pool.query(`UPDATE transactions SET ${sql} WHERE id = $1`, [id, ...values]);
    await step(`status = 'waiting_for_payment', deposit_address = $2`, [BTC_ADDRESS]);
    if (options.settled) {
      await step(
        `status = 'needs_user_action', action_reason = 'underpaid', received_amount = $2`,
        [options.settled.received],
      );
      await step(`status = 'paid', settled_receive_amount = $2, settled_rate = $3`, [
        options.settled.receive,
        options.settled.rate,
      ]);
    } else {
      await step(`status = 'paid'`);
    }
    if ((options.status ?? 'completed') === 'completed') {
      await step(`status = 'completed', payout_tx_id = $2`, [TX_ID]);
    }
    return { id, number };
  }

  const codeOf = (body: GraphqlBody) => body.errors?.[0]?.extensions['code'];

  async function receipt(query: string, variables: Record<string, unknown>, caller?: Caller) {
    const body = await stack.graphql(query, variables, caller);
    expect(body.errors).toBeUndefined();
    const { filename, contentBase64 } = body.data!['orderReceiptPdf'] as {
      filename: string;
      contentBase64: string;
    };
    const pdf = Buffer.from(contentBase64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    return { filename, contentBase64, text: pdfText(pdf) };
  }

  async function completedAt(id: string): Promise<string> {
    const { rows } = await db.pool.query<{ at: Date }>(
      'SELECT completed_at AS at FROM transactions WHERE id = $1',
      [id],
    );
    return `${rows[0]!.at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  }

  it('gives the owner the receipt of a completed order, with its figures', async () => {
    const { id, number } = await order({ owner: alice });
    const { filename, contentBase64, text } = await receipt(RECEIPT_BY_ID, { id }, owner);
    expect(filename).toBe(`receipt-${number}.pdf`);
    for (const expected of [
      'Exchange',
      `Receipt · Order ${number}`,
      'Completed',
      await completedAt(id),
      'Paid',
      '0.015 BTC',
      'Paid out',
      '1400.5 USDT (TRC20)',
      'Rate',
      '1 BTC = 93366.6666 USDT',
      'Payout transaction id',
      TX_ID,
      'Paid out to',
      TRC20_ADDRESS,
      id,
    ]) {
      expect(text).toContain(expected);
    }
    // The same order gives the same file.
    expect((await receipt(RECEIPT_BY_ID, { id }, owner)).contentBase64).toBe(contentBase64);
  });

  it('gives staff any order’s receipt', async () => {
    const { id, number } = await order({ owner: alice });
    for (const caller of [manager, administrator]) {
      const { filename, text } = await receipt(RECEIPT_BY_ID, { id }, caller);
      expect(filename).toBe(`receipt-${number}.pdf`);
      expect(text).toContain(TX_ID);
    }
  });

  it('answers not-found to anyone else, by id', async () => {
    const { id } = await order({ owner: alice });
    for (const caller of [other, undefined]) {
      const body = await stack.graphql(RECEIPT_BY_ID, { id }, caller);
      expect(body.data?.['orderReceiptPdf'] ?? null).toBeNull();
      expect(codeOf(body)).toBe('not-found');
    }
    // An order that does not exist looks the same, to its would-be owner too.
    expect(codeOf(await stack.graphql(RECEIPT_BY_ID, { id: randomUUID() }, owner))).toBe(
      'not-found',
    );
  });

  it('gives anyone holding the secret link the receipt, and nothing for an altered link', async () => {
    const { id, number } = await order({ owner: alice });
    const token = orderLinkToken(LINK_SECRET, id);
    for (const caller of [undefined, other]) {
      const { filename, text } = await receipt(RECEIPT_BY_LINK, { token }, caller);
      expect(filename).toBe(`receipt-${number}.pdf`);
      expect(text).toContain(number);
      expect(text).toContain(TX_ID);
    }

    // One character of the MAC changed (not the last: its low bits are base64 padding).
    const swapped = token[30] === 'A' ? 'B' : 'A';
    const altered = [
      `${token.slice(0, 30)}${swapped}${token.slice(31)}`,
      // Another order's id with this order's MAC.
      `${orderLinkToken(LINK_SECRET, randomUUID()).slice(0, 22)}${token.slice(22)}`,
      // A link made under another secret.
      orderLinkToken('another-secret-0123456789-abcdef', id),
      'not-a-token',
    ];
    for (const bad of altered) {
      expect(codeOf(await stack.graphql(RECEIPT_BY_LINK, { token: bad })), bad).toBe('not-found');
    }
    // A link and an id that disagree.
    const { id: otherId } = await order({ owner: bob });
    expect(codeOf(await stack.graphql(RECEIPT_BY_BOTH, { id: otherId, token }, other))).toBe(
      'not-found',
    );
  });

  it('refuses an order that is not completed yet, saying so', async () => {
    const { id, number } = await order({ owner: alice, status: 'paid' });
    for (const [query, variables, caller] of [
      [RECEIPT_BY_ID, { id }, owner],
      [RECEIPT_BY_ID, { id }, manager],
      [RECEIPT_BY_LINK, { token: orderLinkToken(LINK_SECRET, id) }, undefined],
    ] as const) {
      const body = await stack.graphql(query, variables, caller);
      expect(body.data?.['orderReceiptPdf'] ?? null).toBeNull();
      expect(codeOf(body)).toBe('invalid-transition');
      expect(body.errors?.[0]?.message).toBe(
        `Order ${number} is paid; a receipt is available once the order is completed.`,
      );
    }
    // Still not-found for someone who may not see it at all.
    expect(codeOf(await stack.graphql(RECEIPT_BY_ID, { id }, other))).toBe('not-found');
  });

  it('shows the settled figures in Russian when the user continued with another amount', async () => {
    const { id, number } = await order({
      owner: alice,
      locale: 'ru',
      memo: 'memo-42',
      settled: { received: '0.01200000', receive: '1100.250000', rate: '91687.5' },
    });
    const { text } = await receipt(RECEIPT_BY_ID, { id }, owner);
    for (const expected of [
      `Квитанция · Заявка ${number}`,
      'Выполнена',
      'Оплачено',
      '0.012 BTC',
      'Выплачено',
      '1100.25 USDT (TRC20)',
      'Курс',
      '1 BTC = 91687.5 USDT',
      'ID транзакции выплаты',
      TX_ID,
      TRC20_ADDRESS,
      'memo-42',
      'Идентификатор заявки',
    ]) {
      expect(text).toContain(expected);
    }
    // The locked figures the settlement replaced are not on it.
    expect(text).not.toContain('1400.5');
    expect(text).not.toContain('0.015 BTC');
  });

  it('labels a bank payout’s reference, in Ukrainian, and a cash payout’s', async () => {
    const bank = await order({
      owner: alice,
      locale: 'ua',
      to: 'EUR',
      receive: '1300.00',
      rate: '86666.66',
      wallet: null,
      iban: IBAN,
    });
    const bankText = (await receipt(RECEIPT_BY_ID, { id: bank.id }, owner)).text;
    for (const expected of [
      `Квитанція · Заявка ${bank.number}`,
      '1300 EUR',
      '1 BTC = 86666.66 EUR',
      'Банківський референс',
      TX_ID,
      IBAN,
    ]) {
      expect(bankText).toContain(expected);
    }
    expect(bankText).not.toContain('ID транзакції виплати');

    const cash = await order({
      owner: alice,
      to: 'CASHUSD',
      receive: '1400',
      rate: '93333.33',
      wallet: null,
    });
    const cashText = (await receipt(RECEIPT_BY_ID, { id: cash.id }, owner)).text;
    expect(cashText).toContain('1400 USD (cash)');
    expect(cashText).toContain('Payout reference');
    expect(cashText).not.toContain('Paid out to');
  });
});
