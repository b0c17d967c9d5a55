import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fixture, startFixtureServer } from './fixtures/server.ts';
import { createKrakenProvider } from './kraken.ts';
import { REFS } from './test-currencies.ts';
import { RateProviderError } from './types.ts';

const PATH = '/0/public/Ticker';

describe('Kraken provider against recorded /0/public/Ticker responses', () => {
  let server: Awaited<ReturnType<typeof startFixtureServer>>;
  beforeAll(async () => {
    server = await startFixtureServer({});
  });
  afterAll(async () => {
    await server.close();
  });

  const provider = () => createKrakenProvider({ baseUrl: server.url, timeoutMs: 500 });
  const failure = async () => {
    const error: unknown = await provider()
      .fetchPrices(REFS)
      .catch((rejection: unknown) => rejection);
    if (!RateProviderError.is(error))
      throw new Error(`expected a RateProviderError: ${String(error)}`);
    return error;
  };

  it('converts last USD trades to USDT through USDT/USD (USDTZUSD c[0] = 1.00023)', async () => {
    server.answer(PATH, { body: fixture('kraken/ticker.json') });
    const prices = await provider().fetchPrices(REFS);
    expect(Object.fromEntries(prices)).toEqual({
      BTC: '97828.7993761', // XXBTZUSD 97851.3 / 1.00023, 12 significant digits
      USDTTRC20: '1',
      USDTERC20: '1',
      ETH: '3609.57979665', // XETHZUSD
      ETHARBITRUM: '3609.57979665',
      XMR: '243.114083761', // XXMRZUSD
      DOGE: '0.183112284175', // XDGUSD
      USDCERC20: '0.999680073583', // USDCUSD
      SHIB: '0.0000164762104716', // SHIBUSD
      KAS: '0.0947901982544', // KASUSD
      EUR: '1.15915339472', // ZEURZUSD
      CASHEUR: '1.15915339472',
      USD: '0.999770052888', // 1 / 1.00023
    });
    // UAH, PLN and CHF have no USD pair on Kraken: absent.
    expect(server.requests.at(-1)).toBe(`GET ${PATH}`);
  });

  it('answers only USDT when the USDT/USD pair is missing', async () => {
    const recorded = JSON.parse(fixture('kraken/ticker.json')) as {
      result: Record<string, unknown>;
    };
    delete recorded.result['USDTZUSD'];
    server.answer(PATH, { body: JSON.stringify({ error: [], result: recorded.result }) });
    expect([...(await provider().fetchPrices(REFS)).keys()]).toEqual(['USDTTRC20', 'USDTERC20']);
  });

  it("turns Kraken's error array (HTTP 200) into a provider error", async () => {
    server.answer(PATH, { body: fixture('kraken/error-unknown-pair.json') });
    const error = await failure();
    expect(error.code).toBe('provider-error');
    expect(error.message).toContain('EQuery:Unknown asset pair');

    server.answer(PATH, { body: fixture('kraken/error-unavailable.json') });
    expect((await failure()).message).toContain('EService:Unavailable');
  });

  it('ignores warnings ("W…") next to a result', async () => {
    const recorded = JSON.parse(fixture('kraken/ticker.json')) as { result: unknown };
    server.answer(PATH, {
      body: JSON.stringify({ error: ['WGeneral:Deprecated'], result: recorded.result }),
    });
    expect((await provider().fetchPrices(REFS)).get('BTC')).toBe('97828.7993761');
  });

  it('reports HTTP 429 and 503 with their status', async () => {
    server.answer(PATH, { status: 429, body: '{"error":["EAPI:Rate limit exceeded"]}' });
    expect((await failure()).code).toBe('rate-limited');
    server.answer(PATH, { status: 503, body: '{"error":["EService:Unavailable"]}' });
    const error = await failure();
    expect(error).toMatchObject({ code: 'http-error', details: { status: 503 } });
  });

  it('reports a body that is not JSON, or not a Ticker response, as malformed', async () => {
    server.answer(PATH, { body: '{"error":[],"result":{"XXBTZUSD":{"a":["97856.2' });
    expect((await failure()).code).toBe('malformed-response');
    server.answer(PATH, { body: '{"error":[],"result":{"XXBTZUSD":{"c":97851.3}}}' });
    expect((await failure()).code).toBe('malformed-response');
  });

  it('gives up after the timeout', async () => {
    server.answer(PATH, { body: fixture('kraken/ticker.json'), delayMs: 5_000 });
    expect((await failure()).code).toBe('timeout');
  });
});
