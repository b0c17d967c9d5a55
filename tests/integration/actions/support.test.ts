import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { DEV_JWT_KEY, signHs256, userClaims } from '../../support/jwt.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type GraphqlBody,
} from './harness.ts';

/*
 * Support requests from the contact and feedback forms, through the engine: anyone may send
 * one, and a second from the same e-mail or the same client within a minute is refused with
 * spec section 5's message.
 */

const SUBMIT = `mutation ($input: SupportRequestInput!) {
  submitSupportRequest(input: $input) { id createdAt }
}`;
const COOLDOWN = 'You have already submitted a request recently. Please try again in a minute.';

describe.each(databaseTargets)('support requests on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  const userId = randomUUID();
  const staffId = randomUUID();

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, { user: userId, staff: staffId });
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  /**
   * Sends the form from the loopback address `from` (127.0.0.x: a client of its own, as the
   * engine sees its socket), with any `headers` the client adds.
   */
  async function submit(
    input: Record<string, unknown>,
    options: { from?: string; token?: string; headers?: Record<string, string> } = {},
  ): Promise<GraphqlBody> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...options.headers,
    };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    const body = JSON.stringify({ query: SUBMIT, variables: { input } });
    headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${stack.engineUrl}/v1/graphql`,
        { method: 'POST', headers, agent: false, localAddress: options.from ?? '127.0.0.1' },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve(JSON.parse(text) as GraphqlBody);
            } catch {
              reject(new Error(`not JSON (HTTP ${response.statusCode ?? 0}): ${text}`));
            }
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  const contact = (email: string) => ({
    name: 'Ann Visitor',
    email,
    orderId: '100042',
    message: 'My order is still waiting for the operator.',
  });

  it('takes a request from an anonymous visitor and stores what the form said', async () => {
    const sent = await submit(contact('ann@example.com'), { from: '127.0.0.21' });
    expect(sent.errors).toBeUndefined();
    const id = (sent.data?.['submitSupportRequest'] as { id: string }).id;
    const { rows } = await db.pool.query(
      `SELECT user_id, name, email, order_id, subject, message, handled,
              client_key LIKE 'ip:%' AS keyed_by_address
         FROM support_requests WHERE id = $1`,
      [id],
    );
    expect(rows).toEqual([
      {
        user_id: null,
        name: 'Ann Visitor',
        email: 'ann@example.com',
        order_id: '100042',
        subject: null,
        message: 'My order is still waiting for the operator.',
        handled: false,
        keyed_by_address: true,
      },
    ]);
  });

  it('refuses a second request from the same e-mail within a minute, in any case', async () => {
    expect(
      (await submit(contact('bob@example.com'), { from: '127.0.0.22' })).errors,
    ).toBeUndefined();
    const again = await submit(contact('BOB@example.com'), { from: '127.0.0.23' });
    expect(again.errors?.[0]).toMatchObject({
      message: COOLDOWN,
      extensions: { code: 'too-frequent' },
    });
  });

  it('refuses a second request from the same client under another e-mail', async () => {
    expect(
      (await submit(contact('carl@example.com'), { from: '127.0.0.24' })).errors,
    ).toBeUndefined();
    const again = await submit(contact('carl.other@example.com'), { from: '127.0.0.24' });
    expect(again.errors?.[0]?.message).toBe(COOLDOWN);
    // Another client with another e-mail is someone else.
    expect(
      (await submit(contact('dana@example.com'), { from: '127.0.0.25' })).errors,
    ).toBeUndefined();
  });

  it('security regression: limits an anonymous client by its address, whatever it forges', async () => {
    // Issue 19, point 6: the key was the last X-Forwarded-For entry as the client wrote it
    // (the engine passed it on as if it had seen it), and empty without one.
    const first = await submit(contact('forger@example.com'), {
      from: '127.0.0.31',
      headers: { 'x-forwarded-for': '203.0.113.10', 'x-real-ip': '203.0.113.11' },
    });
    expect(first.errors).toBeUndefined();
    const second = await submit(contact('forger.two@example.com'), {
      from: '127.0.0.31',
      headers: { 'x-forwarded-for': '198.51.100.77, 203.0.113.12', 'x-real-ip': '203.0.113.13' },
    });
    expect(second.errors?.[0]).toMatchObject({
      message: COOLDOWN,
      extensions: { code: 'too-frequent' },
    });

    // Development, no proxy, no header at all: the client is still the address it comes from.
    expect(
      (await submit(contact('plain@example.com'), { from: '127.0.0.32' })).errors,
    ).toBeUndefined();
    const again = await submit(contact('plain.two@example.com'), { from: '127.0.0.32' });
    expect(again.errors?.[0]?.message).toBe(COOLDOWN);
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM support_requests WHERE email LIKE 'forger%' OR email LIKE 'plain%'`,
    );
    expect(rows).toEqual([{ n: 2 }]);
  });

  it('keys a signed-in user by their account, and takes the feedback form subject', async () => {
    const token = signHs256(userClaims(userId), DEV_JWT_KEY);
    const feedback = { email: 'user@example.com', subject: 'Rates', message: 'Please add CHF.' };
    const sent = await submit(feedback, { token });
    expect(sent.errors).toBeUndefined();
    const { rows } = await db.pool.query(
      'SELECT user_id, subject, client_key FROM support_requests WHERE lower(email) = $1',
      ['user@example.com'],
    );
    expect(rows).toEqual([{ user_id: userId, subject: 'Rates', client_key: `user:${userId}` }]);
    const again = await submit({ ...feedback, email: 'user.second@example.com' }, { token });
    expect(again.errors?.[0]?.message).toBe(COOLDOWN);
  });

  it('refuses a missing message or a malformed e-mail, and writes nothing', async () => {
    const before = await db.pool.query('SELECT count(*)::int AS n FROM support_requests');
    const noMessage = await submit({ email: 'eve@example.com', message: '  ' });
    expect(noMessage.errors?.[0]?.extensions).toMatchObject({
      code: 'invalid-input',
      field: 'message',
    });
    const badEmail = await submit({ email: 'not-an-email', message: 'Hello' });
    expect(badEmail.errors?.[0]?.extensions).toMatchObject({
      code: 'invalid-input',
      field: 'email',
    });
    const after = await db.pool.query('SELECT count(*)::int AS n FROM support_requests');
    expect(after.rows).toEqual(before.rows);
  });

  it('gives nobody a direct insert, and lets staff mark a request handled', async () => {
    const direct = await stack.graphql(
      `mutation { insert_support_requests_one(object: { email: "x@example.com", message: "hi" }) { id } }`,
      {},
    );
    expect(direct.errors?.[0]?.message).toMatch(/not found in type/);

    const { rows } = await db.pool.query<{ id: string }>(
      `SELECT id FROM support_requests WHERE email = 'ann@example.com'`,
    );
    const handled = await stack.graphql(
      `mutation ($id: uuid!) {
         update_support_requests_by_pk(pk_columns: { id: $id }, _set: { handled: true }) {
           handled handled_by
         }
       }`,
      { id: rows[0]!.id },
      { userId: staffId, role: 'manager' },
    );
    expect(handled.data?.['update_support_requests_by_pk']).toEqual({
      handled: true,
      handled_by: staffId,
    });
  });
});
