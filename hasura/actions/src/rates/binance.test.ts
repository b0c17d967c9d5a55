import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createBinanceProvider } from './binance.ts';
import { fixture, startFixtureServer } from './fixtures/server.ts';
import { REFS } from './test-currencies.ts';
import { RateProviderError } from './types.ts';

const PATH = '/api/v3/ticker/price';

describe('Binance provider against recorded /api/v3/ticker/price responses', () => {
  let server: Awaited<ReturnType<typeof startFixtureServer>>;
  beforeAll(async () => {
    server = await startFixtureServer({});
  });
  afterAll(async () => {
    await server.close();
  });

  const provider = () => createBinanceProvider({ baseUrl: server.url, timeoutMs: 500 });
  const failure = async () => {
    const error: unknown = await provider()
      .fetchPrices(REFS)
      .then(
        () => null,
        (rejection: unknown) => rejection,
      );
    if (!RateProviderError.is(error))
      throw new Error(`expected a RateProviderError: ${String(error)}`);
    return error;
  };

  it('maps our currencies to USDT prices, as exact decimal strings', async () => {
    server.answer(PATH, { body: fixture('binance/ticker-price.json') });
    const prices = await provider().fetchPrices(REFS);
    expect(Object.fromEntries(prices)).toEqual({
      BTC: '97834.2',
      USDTTRC20: '1',
      USDTERC20: '1',
      ETH: '3609.12',
      ETHARBITRUM: '3609.12',
      DOGE: '0.18312',
      USDCERC20: '0.9998',
      SHIB: '0.00001647',
      EUR: '1.1591',
      CASHEUR: '1.1591',
      // USDTUAH 41.87 UAH per USDT → 1 / 41.87, 12 significant digits.
      UAH: '0.02388344877',
      // USDTPLN 3.664 → 1 / 3.664.
      CASHPLN: '0.272925764192',
    });
    // Not listed on Binance, so simply absent: XMR, KAS, USD, CHF.
    expect(server.requests.at(-1)).toBe(`GET ${PATH}`);
  });

  it('skips a symbol whose price is not a positive decimal', async () => {
    server.answer(PATH, {
      body: JSON.stringify([
        { symbol: 'BTCUSDT', price: '0.00000000' },
        { symbol: 'ETHUSDT', price: '3.6e3' },
        { symbol: 'EURUSDT', price: '1.15910000' },
      ]),
    });
    expect(Object.fromEntries(await provider().fetchPrices(REFS))).toEqual({
      USDTTRC20: '1',
      USDTERC20: '1',
      EUR: '1.1591',
      CASHEUR: '1.1591',
    });
  });

  it("reports HTTP 429 with Binance's error body and Retry-After as rate-limited", async () => {
    server.answer(PATH, {
      status: 429,
      headers: { 'retry-after': '37' },
      body: fixture('binance/error-too-many-requests.json'),
    });
    const error = await failure();
    expect(error.code).toBe('rate-limited');
    expect(error.details).toMatchObject({ status: 429, retryAfterSeconds: 37 });
    expect(error.message).toContain('-1003');
  });

  it('reports HTTP 418 (IP banned after ignoring 429s) as rate-limited', async () => {
    server.answer(PATH, {
      status: 418,
      body: '{"code":-1003,"msg":"Way too much request weight used; IP banned until 1763745600000."}',
    });
    expect((await failure()).code).toBe('rate-limited');
  });

  it('reports a 5xx from the edge (HTML body) as an http-error', async () => {
    server.answer(PATH, {
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
    });
    const error = await failure();
    expect(error.code).toBe('http-error');
    expect(error.details.status).toBe(502);
  });

  it('reports a truncated JSON body as malformed', async () => {
    server.answer(PATH, { body: fixture('binance/ticker-price.json').slice(0, 300) });
    expect((await failure()).code).toBe('malformed-response');
  });

  it('reports JSON of the wrong shape (an error object with status 200) as malformed', async () => {
    server.answer(PATH, { body: '{"code":-1121,"msg":"Invalid symbol."}' });
    expect((await failure()).code).toBe('malformed-response');
  });

  it('gives up after the timeout', async () => {
    server.answer(PATH, { body: fixture('binance/ticker-price.json'), delayMs: 5_000 });
    const started = Date.now();
    const error = await failure();
    expect(error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await startFixtureServer({});
    await closed.close();
    const error: unknown = await createBinanceProvider({ baseUrl: closed.url })
      .fetchPrices(REFS)
      .catch((rejection: unknown) => rejection);
    expect(RateProviderError.is(error) && error.code).toBe('network-error');
  });
});
