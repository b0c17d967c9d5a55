import { Writable } from 'node:stream';

import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

import { ActionError } from '../actions/errors.ts';
import { HasuraError } from '../errors.ts';
import { createOperationObserver, operationFailure, type OperationFacts } from './operation-log.ts';

/* The engine's line per operation: the code the client sees, and an error level only for faults. */

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

const facts: OperationFacts = {
  requestId: 'req-1',
  name: 'SubmitSupportRequest',
  type: 'mutation',
  role: 'anonymous',
};
const ERROR = 50;
const INFO = 30;

describe('the operation line', () => {
  it("files a handler's refusal under the handler's code, at info", async () => {
    const { lines, logger } = capture();
    const observer = createOperationObserver(logger, undefined);
    // What the engine makes of a 4xx without a top-level code (Hasura: `unexpected`).
    const refusal = new ActionError('unexpected', 'One request a minute.', {
      status: 400,
      extensions: { code: 'rate-limited' },
    });
    observer.finished(facts, 12.5, operationFailure(refusal));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({ level: INFO, errorCode: 'rate-limited', reqId: 'req-1' });
  });

  it('logs faults of the server or its handlers at error', async () => {
    const { lines, logger } = capture();
    const observer = createOperationObserver(logger, undefined);
    const failures = [
      new ActionError('unexpected', 'internal error', { status: 500 }),
      new HasuraError('postgres-error', 'database query error'),
      new HasuraError('unexpected', 'an unexpected error'),
    ];
    for (const failure of failures) observer.finished(facts, 1, operationFailure(failure));
    observer.finished(facts, 1, operationFailure(new HasuraError('validation-failed', 'no field')));
    observer.finished(facts, 1, undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line['level'], line['errorCode']])).toEqual([
      [ERROR, 'unexpected'],
      [ERROR, 'postgres-error'],
      [ERROR, 'unexpected'],
      [INFO, 'validation-failed'],
      [INFO, undefined],
    ]);
  });
});
