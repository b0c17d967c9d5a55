import { describe, expect, it } from 'vitest';

import { connectionError, isConnectionError, toHasuraError } from './pg-errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('database errors', () => {
  it('tells a lost database from a failed statement', () => {
    const lost = [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is shutting down', '57P03'),
      withCode('the database system is starting up', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'failed'),
      new Error('wrapped', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }),
    ];
    for (const error of lost) expect(isConnectionError(error), error.message).toBe(true);
    const failed = [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('relation "x" does not exist', '42P01'),
      withCode('canceling statement due to statement timeout', '57014'),
      new Error('something else'),
      'a string',
      undefined,
    ];
    for (const error of failed) expect(isConnectionError(error), String(error)).toBe(false);
  });

  it("answers a lost database with Hasura's connection error, as a retryable 503", () => {
    const error = toHasuraError(withCode('connect ECONNREFUSED', 'ECONNREFUSED'), '$.x');
    expect(error.status).toBe(503);
    expect(error.toJSON()).toEqual({
      message: 'connection error',
      extensions: { path: '$.x', code: 'postgres-error' },
    });
    expect(connectionError().toJSON().extensions).toEqual({ path: '$', code: 'postgres-error' });
    // Other errors keep their mapping.
    expect(toHasuraError(withCode('dup', '23505'), '$').code).toBe('constraint-violation');
    expect(toHasuraError(withCode('bad', '42P01'), '$').status).toBe(500);
  });
});
