import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { attemptResult, trimFraction } from './event-log.ts';
import { postJson, retryAfterSeconds, type HttpOutcome } from './http.ts';
import { WebhookReceiver } from './testing.ts';

const response = (status: number, headers: Record<string, string> = {}): HttpOutcome => ({
  kind: 'response',
  status,
  headers,
  body: '',
});

describe('retry rules (Hasura)', () => {
  const retry = { numRetries: 2, intervalSeconds: 10 };

  it('delivers on 2xx only', () => {
    expect(attemptResult(response(204), 0, retry)).toEqual({ kind: 'delivered' });
    expect(attemptResult(response(302), 0, retry)).toEqual({ kind: 'retry', delaySeconds: 10 });
  });

  it('retries until tries reach num_retries, then fails', () => {
    expect(attemptResult(response(500), 1, retry)).toEqual({ kind: 'retry', delaySeconds: 10 });
    expect(attemptResult(response(500), 2, retry)).toEqual({ kind: 'failed' });
    expect(
      attemptResult({ kind: 'error', message: 'ECONNREFUSED', timedOut: false }, 2, retry),
    ).toEqual({ kind: 'failed' });
  });

  it('follows a positive integer Retry-After, even past num_retries', () => {
    expect(attemptResult(response(503, { 'retry-after': '3' }), 0, retry)).toEqual({
      kind: 'retry',
      delaySeconds: 3,
    });
    expect(attemptResult(response(429, { 'retry-after': '1' }), 5, retry)).toEqual({
      kind: 'retry',
      delaySeconds: 1,
    });
  });

  it('ignores Retry-After dates, zero and garbage', () => {
    expect(
      retryAfterSeconds(response(503, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' })),
    ).toBeUndefined();
    expect(retryAfterSeconds(response(503, { 'retry-after': '0' }))).toBeUndefined();
    expect(retryAfterSeconds(response(503, { 'retry-after': '-1' }))).toBeUndefined();
    expect(retryAfterSeconds({ kind: 'error', message: 'x', timedOut: true })).toBeUndefined();
  });
});

describe('timestamps', () => {
  it('print like aeson: microseconds without trailing zeros', () => {
    expect(trimFraction('2018-09-05T07:14:21.601701Z')).toBe('2018-09-05T07:14:21.601701Z');
    expect(trimFraction('2018-09-05T07:14:21.601000Z')).toBe('2018-09-05T07:14:21.601Z');
    expect(trimFraction('2018-09-05T07:14:20.000000Z')).toBe('2018-09-05T07:14:20Z');
  });
});

describe('postJson', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
  });
  afterEach(async () => {
    await receiver.stop();
  });

  it('posts JSON with the configured headers and returns the answer', async () => {
    receiver.reply = () => ({ status: 201, headers: { 'x-answer': 'yes' }, body: 'ok' });
    const outcome = await postJson(
      `${receiver.url}/hook`,
      [['X-Custom', 'v']],
      '{"a":1}',
      1000,
      new AbortController().signal,
    );
    expect(outcome).toMatchObject({
      kind: 'response',
      status: 201,
      body: 'ok',
      headers: { 'x-answer': 'yes' },
    });
    const [call] = receiver.calls;
    expect(call).toMatchObject({ path: '/hook', body: { a: 1 } });
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers['x-custom']).toBe('v');
  });

  it('gives up at the deadline', async () => {
    receiver.reply = () => 'hang';
    const started = Date.now();
    const outcome = await postJson(receiver.url, [], '{}', 200, new AbortController().signal);
    expect(outcome).toMatchObject({ kind: 'error', timedOut: true });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports a refused connection and a dropped one', async () => {
    const port = receiver.port;
    await receiver.stop();
    expect(
      await postJson(`http://127.0.0.1:${port}/`, [], '{}', 1000, new AbortController().signal),
    ).toMatchObject({
      kind: 'error',
      timedOut: false,
      message: expect.stringContaining('ECONNREFUSED') as unknown,
    });
    await receiver.start(port);
    receiver.reply = () => 'reset';
    expect(
      await postJson(receiver.url, [], '{}', 1000, new AbortController().signal),
    ).toMatchObject({ kind: 'error', timedOut: false });
  });

  it('stops when aborted', async () => {
    receiver.reply = () => 'hang';
    const controller = new AbortController();
    const pending = postJson(receiver.url, [], '{}', 10_000, controller.signal);
    await receiver.waitFor((calls) => calls.length === 1);
    controller.abort();
    expect(await pending).toEqual({ kind: 'aborted' });
  });
});
