import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FEED_TTL_MS, rateFeedXml, rateSides } from '@app/actions/feeds/rate-feed';
import { Dec } from '@app/shared/quote';

import { rateFeedHandler } from '../../../web/server/rate-feed.ts';
import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from './harness.ts';

/*
 * The rate feed (`rateFeed`, /bestchange.xml) through the engine: well-formed XML of
 * BestChange's documented structure, and for each direction the figures the `quote` action
 * gives a visitor.
 */

const FEED = 'query { rateFeed { xml generatedAt } }';
const QUOTE = `query ($input: QuoteInput!) {
  quote(input: $input) { from to side rate limits { side currency min max } }
}`;

// ---------------------------------------------------------------------------------------------
// A small strict XML reader: enough for the feed (elements, text, entities, the declaration,
// comments), refusing anything that is not well-formed.

interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeText(raw: string): string {
  if (raw.includes('<')) throw new Error(`raw < in text: ${raw}`);
  return raw.replace(/&([^;]*);?/g, (match, name: string) => {
    if (!match.endsWith(';')) throw new Error(`unterminated entity in: ${raw}`);
    if (name in ENTITY) return ENTITY[name]!;
    const code = /^#x([0-9a-f]+)$/i.exec(name)?.[1] ?? /^#([0-9]+)$/.exec(name)?.[1];
    if (code === undefined) throw new Error(`unknown entity &${name};`);
    return String.fromCodePoint(name.startsWith('#x') ? parseInt(code, 16) : Number(code));
  });
}

function parseXml(xml: string): XmlElement {
  let rest = xml;
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>/.exec(rest);
  if (!declaration) throw new Error('no XML declaration with encoding UTF-8');
  rest = rest.slice(declaration[0].length);
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const NAME = '[A-Za-z_][A-Za-z0-9_.-]*';
  while (rest.length > 0) {
    const text = /^[^<]+/.exec(rest)?.[0];
    if (text !== undefined) {
      const top = stack.at(-1);
      if (top) top.text += decodeText(text);
      else if (text.trim() !== '') throw new Error(`text outside the root: ${text}`);
      rest = rest.slice(text.length);
      continue;
    }
    const comment = /^<!--[\s\S]*?-->/.exec(rest)?.[0];
    if (comment) {
      rest = rest.slice(comment.length);
      continue;
    }
    const open = new RegExp(`^<(${NAME})\\s*(/?)>`).exec(rest);
    if (open) {
      if (root && stack.length === 0) throw new Error('a second root element');
      const element: XmlElement = { name: open[1]!, children: [], text: '' };
      stack.at(-1)?.children.push(element);
      root ??= element;
      if (open[2] !== '/') stack.push(element);
      rest = rest.slice(open[0].length);
      continue;
    }
    const close = new RegExp(`^</(${NAME})\\s*>`).exec(rest);
    if (close) {
      const top = stack.pop();
      if (top?.name !== close[1]) throw new Error(`</${close[1]}> closes <${top?.name}>`);
      rest = rest.slice(close[0].length);
      continue;
    }
    throw new Error(`not well-formed at: ${rest.slice(0, 40)}`);
  }
  if (!root || stack.length > 0) throw new Error('unclosed elements');
  return root;
}

// ---------------------------------------------------------------------------------------------
// BestChange's structure (www.bestchange.com/wiki/rates.html), as the feed writes it.

type Item = Record<(typeof ITEM_ELEMENTS)[number], string>;
const ITEM_ELEMENTS = [
  'from',
  'to',
  'in',
  'out',
  'amount',
  'minamount',
  'maxamount',
  'param',
] as const;
const NUMBER = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const MARKS = new Set(['manual', 'floating']);

/** The items of a feed, after checking it against the documented structure. */
function validateFeed(xml: string): Item[] {
  // Every entry on a line of its own.
  for (const line of xml.split('\n').filter((l) => l.trim() !== '')) {
    expect(line).toMatch(/^\s*(<\?xml .*\?>|<\/?rates>|<\/?item>|<([a-z]+)>[^<]*<\/\2>)$/);
  }
  const root = parseXml(xml);
  expect(root.name).toBe('rates');
  expect(root.text.trim()).toBe('');
  return root.children.map((element) => {
    expect(element.name).toBe('item');
    expect(element.children.map((child) => child.name)).toEqual(ITEM_ELEMENTS);
    for (const child of element.children) expect(child.children).toEqual([]);
    const item = Object.fromEntries(
      element.children.map((child) => [child.name, child.text]),
    ) as Item;
    expect(item.from).toMatch(/^[A-Z0-9]{2,16}$/);
    expect(item.to).toMatch(/^[A-Z0-9]{2,16}$/);
    expect(item.from).not.toBe(item.to);
    for (const name of ['in', 'out', 'amount', 'minamount', 'maxamount'] as const) {
      expect(item[name], `${name} of ${item.from}->${item.to}`).toMatch(NUMBER);
    }
    // One side is one unit, and the other is the larger: `in` when the rate is below 1.
    if (item.in === '1') expect(new Dec(item.out).gte(1)).toBe(true);
    else {
      expect(item.out).toBe('1');
      expect(new Dec(item.in).gt(1)).toBe(true);
    }
    expect(new Dec(item.minamount).gt(0)).toBe(true);
    expect(new Dec(item.minamount).lte(item.maxamount)).toBe(true);
    const marks = item.param.split(',').map((mark) => mark.trim());
    expect(marks[0]).toBe('manual');
    for (const mark of marks) expect(MARKS.has(mark), mark).toBe(true);
    return item;
  });
}

describe('rateSides and the XML writer', () => {
  it('put the larger side first, exactly, never overstating the rate', () => {
    expect(rateSides('64000.123456789')).toEqual({ in: '1', out: '64000.123456789' });
    expect(rateSides('1')).toEqual({ in: '1', out: '1' });
    expect(rateSides('0.00001')).toEqual({ in: '100000', out: '1' });
    // 1/0.3 = 3.333…: rounded up at 18 significant digits.
    expect(rateSides('0.3')).toEqual({ in: '3.33333333333333334', out: '1' });
  });

  it('escape every value, so the file stays well-formed', () => {
    const xml = rateFeedXml([
      {
        from: 'A&B',
        to: '<C>',
        in: '1',
        out: '2',
        amount: '3',
        minamount: '1',
        maxamount: '2',
        param: `manual "x" 'y' \u0001`,
      },
    ]);
    expect(xml).toContain('<from>A&amp;B</from>');
    expect(xml).toContain('<to>&lt;C&gt;</to>');
    const [item] = parseXml(xml).children;
    expect(item!.children.map((child) => child.text)).toEqual([
      'A&B',
      '<C>',
      '1',
      '2',
      '3',
      '1',
      '2',
      `manual "x" 'y' `,
    ]);
  });
});

describe.each(databaseTargets)('the rate feed through the engine on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  const env = { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS };
  let clockOffsetMs = 0;
  const now = () => new Date(Date.now() + clockOffsetMs);

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, {});
    stack = await startActionsStack(db, { env, now });
  });

  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  /** The feed as a visitor gets it (anonymous). */
  async function feed(): Promise<{ xml: string; generatedAt: string; items: Item[] }> {
    const { data, errors } = await stack.graphql(FEED, {});
    expect(errors).toBeUndefined();
    const { xml, generatedAt } = data!['rateFeed'] as { xml: string; generatedAt: string };
    return { xml, generatedAt, items: validateFeed(xml) };
  }

  /** The feed after the cache has run out (the service's clock moved past its lifetime). */
  async function rebuiltFeed() {
    clockOffsetMs += FEED_TTL_MS + 1_000;
    return feed();
  }

  const find = (items: Item[], from: string, to: string) =>
    items.find((item) => item.from === from && item.to === to);

  it('lists every enabled direction with fresh rates, once, with BestChange’s codes', async () => {
    const { items, generatedAt } = await feed();
    expect(Number.isNaN(Date.parse(generatedAt))).toBe(false);
    const { rows } = await db.pool.query<{ count: number }>(
      `SELECT count(*)::integer AS count
         FROM exchange_directions d
         JOIN currencies f ON f.code = d.from_currency AND f.enabled
         JOIN currencies t ON t.code = d.to_currency AND t.enabled
        WHERE d.enabled
          AND EXISTS (SELECT 1 FROM rates WHERE currency_code = d.from_currency)
          AND EXISTS (SELECT 1 FROM rates WHERE currency_code = d.to_currency)`,
    );
    expect(rows[0]!.count).toBeGreaterThan(300);
    expect(items).toHaveLength(rows[0]!.count);
    expect(new Set(items.map((item) => `${item.from}>${item.to}`)).size).toBe(items.length);

    // Our codes where BestChange's differ: BNB on BEP20, EUR by SEPA, UAH by bank transfer.
    expect(find(items, 'BNBBEP20', 'ETH')).toBeDefined();
    expect(find(items, 'BTC', 'SEPAEUR')).toBeDefined();
    expect(find(items, 'BTC', 'WIREUAH')).toBeDefined();
    expect(find(items, 'CASHUSD', 'BTC')).toBeDefined();
    for (const code of ['BNB', 'EUR', 'UAH']) {
      expect(items.some((item) => item.from === code || item.to === code)).toBe(false);
    }
  });

  it('publishes the quote’s rate and limits for a visitor, side send', async () => {
    const { items } = await feed();
    const cases = [
      // crypto to crypto, rate above 1
      ['BTC', 'USDTTRC20', 'BTC', 'USDTTRC20'],
      // a rate below 1: turned round, `in` the larger side
      ['USDTTRC20', 'BTC', 'USDTTRC20', 'BTC'],
      ['BNB', 'ETH', 'BNBBEP20', 'ETH'],
      // fiat both ways
      ['BTC', 'EUR', 'BTC', 'SEPAEUR'],
      ['EUR', 'BTC', 'SEPAEUR', 'BTC'],
      ['UAH', 'EUR', 'WIREUAH', 'SEPAEUR'],
      // cash both ways
      ['CASHUSD', 'BTC', 'CASHUSD', 'BTC'],
      ['BTC', 'CASHUSD', 'BTC', 'CASHUSD'],
    ] as const;
    let inverted = 0;
    for (const [from, to, feedFrom, feedTo] of cases) {
      const item = find(items, feedFrom, feedTo);
      expect(item, `${from}->${to}`).toBeDefined();
      const { data, errors } = await stack.graphql(QUOTE, {
        input: { from, to, side: 'send', amount: item!.minamount },
      });
      expect(errors, `${from}->${to}`).toBeUndefined();
      const quote = data!['quote'] as {
        rate: string;
        limits: { side: string; currency: string; min: string; max: string };
      };
      const rate = new Dec(quote.rate);
      if (item!.in === '1') {
        expect(new Dec(item!.out).eq(rate), `${from}->${to}`).toBe(true);
      } else {
        inverted += 1;
        // out/in is the rate to 17 significant digits, and never above it.
        const published = new Dec(item!.out).div(item!.in);
        expect(published.lte(rate), `${from}->${to}`).toBe(true);
        expect(rate.minus(published).div(rate).lt('1e-17'), `${from}->${to}`).toBe(true);
      }
      expect(quote.limits).toMatchObject({ side: 'send', currency: from });
      expect(new Dec(item!.minamount).eq(quote.limits.min), `${from}->${to} min`).toBe(true);
      expect(new Dec(item!.maxamount).eq(quote.limits.max), `${from}->${to} max`).toBe(true);

      // Manual everywhere; floating where the rate holds 30 minutes (crypto payments).
      const fromKind = await db.pool.query<{ kind: string }>(
        'SELECT kind FROM currencies WHERE code = $1',
        [from],
      );
      expect(item!.param).toBe(fromKind.rows[0]!.kind === 'crypto' ? 'manual, floating' : 'manual');
    }
    expect(inverted).toBeGreaterThanOrEqual(4);
  });

  it('publishes the receive currency’s reserve, max_amount when none is set, once rebuilt', async () => {
    const before = await feed();
    await db.pool.query(`UPDATE currencies SET reserve = 12345.678 WHERE code = 'USDTTRC20'`);

    // Within its lifetime the built feed is served as it was.
    const cached = await feed();
    expect(cached.generatedAt).toBe(before.generatedAt);
    expect(find(cached.items, 'BTC', 'USDTTRC20')!.amount).toBe('100000');

    const { items, generatedAt } = await rebuiltFeed();
    expect(generatedAt).not.toBe(before.generatedAt);
    const toTrc20 = items.filter((item) => item.to === 'USDTTRC20');
    expect(toTrc20.length).toBeGreaterThan(10);
    for (const item of toTrc20) expect(item.amount).toBe('12345.678');
    // No reserve set: the currency's max_amount.
    expect(find(items, 'USDTTRC20', 'BTC')!.amount).toBe('10');
    expect(find(items, 'BTC', 'SEPAEUR')!.amount).toBe('50000');
    expect(find(items, 'BTC', 'CASHUSD')!.amount).toBe('100000');
  });

  it('leaves out disabled directions and every direction of a disabled currency', async () => {
    expect(find((await feed()).items, 'BTC', 'XMR')).toBeDefined();
    await db.pool.query(
      `UPDATE exchange_directions SET enabled = false
        WHERE from_currency = 'BTC' AND to_currency = 'XMR'`,
    );
    await db.pool.query(`UPDATE currencies SET enabled = false WHERE code = 'LTC'`);
    try {
      const { items } = await rebuiltFeed();
      expect(find(items, 'BTC', 'XMR')).toBeUndefined();
      expect(find(items, 'XMR', 'BTC')).toBeDefined();
      expect(items.some((item) => item.from === 'LTC' || item.to === 'LTC')).toBe(false);
      // As the quote says.
      const { errors } = await stack.graphql(QUOTE, {
        input: { from: 'BTC', to: 'XMR', side: 'send', amount: '0.01' },
      });
      expect(errors?.[0]?.extensions['code']).toBe('direction-disabled');
    } finally {
      await db.pool.query(
        `UPDATE exchange_directions SET enabled = true
          WHERE from_currency = 'BTC' AND to_currency = 'XMR'`,
      );
      await db.pool.query(`UPDATE currencies SET enabled = true WHERE code = 'LTC'`);
    }
  });

  it('is served by the web server at /bestchange.xml, asked for as a visitor', async () => {
    const { xml } = await rebuiltFeed();
    const app = express();
    app.get('/bestchange.xml', rateFeedHandler(`${stack.engineUrl}/v1/graphql`));
    const server: Server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/bestchange.xml`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=30');
      expect(await response.text()).toBe(xml);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('leaves out directions without a fresh rate', async () => {
    // Every stored price is 10 minutes old for the service, but three fresh ones.
    clockOffsetMs += 10 * 60_000;
    env.QUOTE_MAX_RATE_AGE_SECONDS = 60;
    await db.pool.query(
      `INSERT INTO rates (currency_code, provider, price_usdt, fetched_at)
       SELECT code, 'test', price, $1::timestamptz FROM (VALUES ('BTC', 98000), ('ETH', 3600), ('USDTTRC20', 1))
         AS fresh (code, price)`,
      [now()],
    );
    try {
      const { items } = await rebuiltFeed();
      expect(items.map((item) => `${item.from}>${item.to}`).sort()).toEqual(
        [
          'BTC>ETH',
          'BTC>USDTTRC20',
          'ETH>BTC',
          'ETH>USDTTRC20',
          'USDTTRC20>BTC',
          'USDTTRC20>ETH',
        ].sort(),
      );
    } finally {
      env.QUOTE_MAX_RATE_AGE_SECONDS = TEN_YEARS;
      await db.pool.query(`DELETE FROM rates WHERE provider = 'test'`);
    }
  });
});
