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

  // As the official engine's dmlTxErrorHandler (graphql-engine, server/src-lib/Hasura/Backends/
  // Postgres/Execute/Types.hs, mkTxErrorHandler), which runs the SQL of queries and mutations.
  it("answers statement failures as Hasura's dmlTxErrorHandler does", () => {
    const answer = (message: string, code: string) => {
      const error = toHasuraError(withCode(message, code), '$.x');
      return { status: error.status, ...error.toJSON() };
    };
    const refused = (code: string, message: string) => ({
      status: 400,
      message,
      extensions: { path: '$.x', code },
    });
    expect(answer('new row violates check constraint "c"', '23514')).toEqual(
      refused(
        'permission-error',
        'Check constraint violation. new row violates check constraint "c"',
      ),
    );
    expect(answer('bank-account-details-fixed: bank account EUR', '23514')).toEqual(
      refused(
        'permission-error',
        'Check constraint violation. bank-account-details-fixed: bank account EUR',
      ),
    );
    expect(answer('dup', '23505')).toEqual(
      refused('constraint-violation', 'Uniqueness violation. dup'),
    );
    expect(answer('null', '23502')).toEqual(
      refused('constraint-violation', 'Not-NULL violation. null'),
    );
    expect(answer('fk', '23503')).toEqual(
      refused('constraint-violation', 'Foreign key violation. fk'),
    );
    expect(answer('ref', '23001')).toEqual(
      refused('constraint-violation', 'Can not delete or update due to data being referred. ref'),
    );
    expect(answer('overlap', '23P01')).toEqual(
      refused('constraint-violation', 'Exclusion violation. overlap'),
    );
    expect(answer('integrity', '23000')).toEqual(refused('constraint-violation', 'integrity'));
    expect(answer('invalid input syntax for type uuid', '22P02')).toEqual(
      refused('data-exception', 'invalid input syntax for type uuid'),
    );
    expect(answer('no unique constraint', '42P10')).toEqual(
      refused('constraint-error', 'there is no unique or exclusion constraint on target column(s)'),
    );
    expect(answer('constraint "x" does not exist', '42704')).toEqual(
      refused('constraint-error', 'constraint "x" does not exist'),
    );
    // Not an expected error: a generic 500 whose detail stays in the log.
    const hidden = {
      status: 500,
      message: 'database query error',
      extensions: { path: '$.x', code: 'unexpected' },
    };
    expect(answer('a plain RAISE EXCEPTION', 'P0001')).toEqual(hidden);
    expect(answer('relation "x" does not exist', '42P01')).toEqual(hidden);
    expect(answer('could not serialize access', '40001')).toEqual(hidden);
  });
});
