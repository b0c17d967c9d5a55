import { describe, expect, it } from 'vitest';

import { DEFAULT_LIMITS } from '../plan/limits.ts';

import { createGraphQLHandler, type GraphQLHandlerOptions } from './graphql-handler.ts';

/** A handler whose session resolves and whose operations are never reached (the batch is refused first). */
function handler(limits?: GraphQLHandlerOptions['limits']) {
  return createGraphQLHandler({
    model: {} as GraphQLHandlerOptions['model'],
    pool: {} as GraphQLHandlerOptions['pool'],
    resolveSession: () => ({ role: 'anonymous', variables: {}, isAdmin: false }),
    stringifyNumericTypes: true,
    environment: {},
    introspect: () => Promise.resolve({}),
    logger: undefined,
    limits,
  });
}

describe('batched requests', () => {
  it(`refuses a batch of more than ${DEFAULT_LIMITS.maxBatchSize} operations before running any (issue 11)`, async () => {
    const batch = Array.from({ length: DEFAULT_LIMITS.maxBatchSize + 1 }, () => ({
      query: '{ __typename }',
    }));
    const result = await handler().handle(batch, {});
    expect(result.error?.code).toBe('bad-request');
    expect(JSON.parse(result.body)).toEqual({
      errors: [
        {
          message: `a batched request may hold at most ${DEFAULT_LIMITS.maxBatchSize} operations`,
          extensions: { path: '$', code: 'bad-request' },
        },
      ],
    });
  });

  it('takes its bound from the engine limits', async () => {
    const result = await handler({ ...DEFAULT_LIMITS, maxBatchSize: 2 }).handle(
      [{ query: '{ __typename }' }, { query: '{ __typename }' }, { query: '{ __typename }' }],
      {},
    );
    expect(result.error?.message).toBe('a batched request may hold at most 2 operations');
  });

  it('answers each member of an allowed batch on its own', async () => {
    const result = await handler().handle([{ nope: 1 }, 'x'], {});
    expect(result.error).toBeUndefined();
    const bodies = JSON.parse(result.body) as Array<{
      errors: Array<{ extensions: { code: string } }>;
    }>;
    expect(bodies.map((body) => body.errors[0]!.extensions.code)).toEqual([
      'bad-request',
      'bad-request',
    ]);
  });
});
