import { describe, expect, it } from 'vitest';

import { asUser, useActionsWorld } from './actions-world.ts';

/*
 * What the client sees when the handler fails: 4xx bodies passed on, answers that do not fit the
 * output type, 5xx, timeouts and unreachable handlers, and who sees the internal details.
 */

const { gql } = useActionsWorld();

describe('actions: handler errors', () => {
  const fail = (payload: unknown) =>
    gql('query ($b: json!) { fail(body: $b) { id } }', { variables: { b: payload } });

  it('propagates a 4xx message and code', async () => {
    expect((await fail({ message: 'bad email', code: 'invalid-email' })).body).toEqual({
      errors: [{ message: 'bad email', extensions: { path: '$', code: 'invalid-email' } }],
    });
    expect((await fail({ message: 'no code' })).body).toEqual({
      errors: [{ message: 'no code', extensions: { path: '$', code: 'unexpected' } }],
    });
  });

  it('propagates 4xx extensions exactly, ignoring the top-level code', async () => {
    expect(
      (
        await fail({
          message: 'boom',
          code: 'top',
          extensions: { foo: 'bar', code: 'action-error' },
        })
      ).body,
    ).toEqual({
      errors: [{ message: 'boom', extensions: { foo: 'bar', code: 'action-error' } }],
    });
    expect((await fail({ message: 'boom', extensions: { foo: 'bar' } })).body).toEqual({
      errors: [{ message: 'boom', extensions: { foo: 'bar' } }],
    });
  });

  it('refuses a 4xx body without a message', async () => {
    const { body } = await fail({ error: 'x' });
    const error = (
      body['errors'] as Array<{ message: string; extensions: Record<string, unknown> }>
    )[0]!;
    expect(error.message).toBe("the key 'message' was not present");
    expect(error.extensions['code']).toBe('parse-failed');
  });

  it('rejects null for a non-null field and missing non-null fields, with internal details for admin', async () => {
    const nullField = await gql('query { null_field { id } }');
    const error = (
      nullField.body['errors'] as Array<{ message: string; extensions: Record<string, unknown> }>
    )[0]!;
    expect(error.message).toBe('expecting not null value for field "id"');
    expect(error.extensions['code']).toBe('unexpected');
    expect(error.extensions['path']).toBe('$');
    expect(error.extensions['internal']).toMatchObject({
      error: 'unexpected response',
      response: {
        status: 200,
        body: { id: null },
        headers: expect.arrayContaining([{ name: 'Set-Cookie', value: 'session=abc' }]) as unknown,
      },
      request: {
        url: '{{ACTION_BASE}}/null-field',
        body: {
          action: { name: 'null_field' },
          input: {},
          session_variables: { 'x-hasura-role': 'admin' },
        },
        headers: [],
        transformed_request: null,
      },
    });
    expect((await gql('query { missing_field { id } }')).body).toMatchObject({
      errors: [
        {
          message: 'field "id" expected in webhook response, but not found',
          extensions: { path: '$', code: 'unexpected' },
        },
      ],
    });
    expect((await gql('query { wrong_shape { id } }')).body).toMatchObject({
      errors: [
        {
          message: 'got array for the action webhook response, expecting UserId',
          extensions: { code: 'unexpected' },
        },
      ],
    });
  });

  it('reports a non-JSON answer, a 5xx, a timeout and an unreachable handler as unexpected', async () => {
    const cases: Array<[string, string]> = [
      ['query { not_json { id } }', 'not a valid json response from webhook'],
      ['query { server_error { id } }', 'internal error'],
      ['query { slow { id } }', 'http exception when calling webhook'],
      ['query { unreachable { id } }', 'http exception when calling webhook'],
    ];
    for (const [query, message] of cases) {
      const { body } = await gql(query);
      const errors = body['errors'] as Array<{
        message: string;
        extensions: Record<string, unknown>;
      }>;
      expect(errors[0]!.message, query).toBe(message);
      expect(errors[0]!.extensions['code'], query).toBe('unexpected');
      expect(errors[0]!.extensions['internal'], query).toBeDefined();
    }
  });

  it("answers a handler's 503 as HTTP 503: with the handler's code when it gives one", async () => {
    const coded = await gql('query { unavailable { id } }', { headers: asUser('1') });
    expect(coded.status).toBe(503);
    expect(coded.headers.get('retry-after')).toBe('1');
    expect(coded.body).toEqual({
      errors: [
        {
          message: 'The service is briefly unavailable.',
          extensions: { code: 'service-unavailable' },
        },
      ],
    });
    // Without a code it stays Hasura's `internal error`, still with the retryable status.
    const bare = await gql('query { server_error { id } }', { headers: asUser('1') });
    expect(bare.status).toBe(503);
    expect(bare.body).toEqual({
      errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }],
    });
  });

  it('shows internal details to admins only', async () => {
    const { body } = await gql('query { server_error { id } }', { headers: asUser('1') });
    expect(body).toEqual({
      errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }],
    });
  });
});
