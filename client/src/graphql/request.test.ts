import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { onGraphqlError, type GraphqlErrorReport } from './error-hook.ts';
import { CancelExchangeDocument, CurrentUserDocument } from './generated/user.ts';
import { graphqlRequest, GraphqlRequestError } from './request.ts';

/*
 * graphqlRequest's HTTP rules (spec sections 7 to 9) against a local server that answers as
 * the engine does, or as a proxy in trouble: a scripted status per request.
 */

let server: http.Server;
let url: string;
let script: Array<{ status: number; body: unknown }> = [];
const received: Array<{
  authorization: string | undefined;
  role: string | undefined;
  body: { query: string };
}> = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      received.push({
        authorization: request.headers.authorization,
        role: request.headers['x-hasura-role'] as string | undefined,
        body: JSON.parse(raw) as { query: string },
      });
      const next = script.shift() ?? { status: 500, body: {} };
      response.writeHead(next.status, { 'content-type': 'application/json' });
      response.end(typeof next.body === 'string' ? next.body : JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/graphql`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  script = [];
  received.length = 0;
});

const USER = { portal_users_by_pk: null };

describe('graphqlRequest', () => {
  it('sends the printed document, the variables and a bearer token', async () => {
    script = [{ status: 200, body: { data: USER } }];
    const data = await graphqlRequest(url, CurrentUserDocument, { userId: 'u1' }, { token: 'abc' });
    expect(data).toEqual(USER);
    expect(received[0]?.authorization).toBe('Bearer abc');
    expect(received[0]?.body.query).toMatch(/^query CurrentUser\(\$userId: uuid!\)/);
  });

  it('sends a token that already has a scheme as it is, and no header without one', async () => {
    script = [
      { status: 200, body: { data: USER } },
      { status: 200, body: { data: USER } },
    ];
    await graphqlRequest(url, CurrentUserDocument, { userId: 'u1' }, { token: 'Bearer xyz' });
    await graphqlRequest(url, CurrentUserDocument, { userId: 'u1' });
    expect(received.map((request) => request.authorization)).toEqual(['Bearer xyz', undefined]);
  });

  it('asks for the acting role only when given one (the staff console)', async () => {
    script = [
      { status: 200, body: { data: USER } },
      { status: 200, body: { data: USER } },
    ];
    await graphqlRequest(
      url,
      CurrentUserDocument,
      { userId: 'u1' },
      { token: 't', role: 'manager' },
    );
    await graphqlRequest(url, CurrentUserDocument, { userId: 'u1' }, { token: 't' });
    expect(received.map((request) => request.role)).toEqual(['manager', undefined]);
  });

  it('retries a query once after a transient status', async () => {
    script = [
      { status: 503, body: 'upstream unavailable' },
      { status: 200, body: { data: USER } },
    ];
    await expect(graphqlRequest(url, CurrentUserDocument, { userId: 'u1' })).resolves.toEqual(USER);
    expect(received).toHaveLength(2);
  });

  it('gives up on a query after the one retry', async () => {
    script = [
      { status: 429, body: {} },
      { status: 429, body: {} },
    ];
    const failure = graphqlRequest(url, CurrentUserDocument, { userId: 'u1' });
    await expect(failure).rejects.toMatchObject({ status: 429 });
    expect(received).toHaveLength(2);
  });

  it('never retries a mutation', async () => {
    script = [{ status: 502, body: {} }];
    await expect(graphqlRequest(url, CancelExchangeDocument, { id: 'o1' })).rejects.toBeInstanceOf(
      GraphqlRequestError,
    );
    expect(received).toHaveLength(1);
  });

  it('does not retry a status outside the list, and treats 4xx as an error', async () => {
    script = [{ status: 404, body: 'not found' }];
    await expect(graphqlRequest(url, CurrentUserDocument, { userId: 'u1' })).rejects.toMatchObject({
      status: 404,
    });
    expect(received).toHaveLength(1);
  });

  it("keeps the engine's error code and reports the failure to the error hook", async () => {
    const reports: GraphqlErrorReport[] = [];
    const stop = onGraphqlError((report) => reports.push(report));
    script = [
      {
        status: 200,
        body: {
          errors: [{ message: 'Could not verify JWT', extensions: { code: 'invalid-jwt' } }],
        },
      },
    ];
    try {
      const failure = await graphqlRequest(url, CurrentUserDocument, { userId: 'u1' }).catch(
        (error: unknown) => error,
      );
      expect(GraphqlRequestError.is(failure) && failure.code).toBe('invalid-jwt');
      expect(received).toHaveLength(1);
      expect(reports).toEqual([{ operationName: 'CurrentUser', error: failure }]);
    } finally {
      stop();
    }
  });
});
