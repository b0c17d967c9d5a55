import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../../../tests/support/databases.ts';
import { createEngine } from '../engine.ts';
import type { Engine } from '../engine-options.ts';

import { sleep, WebhookReceiver, type ReceivedCall } from './testing.ts';

/*
 * Event triggers through a real engine: GraphQL mutations on a fixture table, a local
 * receiver, and the expectations of the conformance corpus's events_* groups (payload shape,
 * session variables, selected columns and payload, headers, webhook_from_env).
 */

const SETUP = `
CREATE SCHEMA IF NOT EXISTS hge_tests;
CREATE TABLE hge_tests.test_t1 (c1 int, c2 text);
`;

const ENVIRONMENT = { EVENT_WEBHOOK_HEADER: 'MyEnvValue' };

function metadata(trigger: Record<string, unknown>) {
  return {
    version: 3,
    sources: [
      {
        name: 'default',
        kind: 'postgres',
        tables: [{ table: { name: 'test_t1', schema: 'hge_tests' }, event_triggers: [trigger] }],
      },
    ],
  };
}

const allColumns = {
  enable_manual: false,
  insert: { columns: '*' },
  update: { columns: '*' },
  delete: { columns: '*' },
};
const defaultRetry = { num_retries: 0, interval_sec: 10, timeout_sec: 60 };

const INSERT =
  'mutation { insert_hge_tests_test_t1(objects: [{c1: 1, c2: "hello"}]) { affected_rows } }';
const UPDATE_C2 =
  'mutation { update_hge_tests_test_t1(where: {c1: {_eq: 1}}, _set: {c2: "world"}) { affected_rows } }';
const UPDATE_C1 =
  'mutation { update_hge_tests_test_t1(where: {c1: {_eq: 1}}, _set: {c1: 2}) { affected_rows } }';
const DELETE = (c1: number) =>
  `mutation { delete_hge_tests_test_t1(where: {c1: {_eq: ${c1}}}) { affected_rows } }`;

interface Expected {
  trigger: string;
  op: string;
  data: { old: unknown; new: unknown };
  session_variables?: Record<string, string>;
  path?: string;
  current_retry?: number;
}

describe.each(databaseTargets)('event triggers through the engine on $name', (target) => {
  let db: TestDatabase;
  let receiver: WebhookReceiver;
  let engine: Engine | undefined;
  let url = '';
  let seen = 0;

  beforeAll(async () => {
    db = await target.create();
    await db.pool.query(SETUP);
  });
  afterAll(async () => {
    await db?.dispose();
  });
  beforeEach(async () => {
    await db.pool.query('TRUNCATE hge_tests.test_t1');
    receiver = new WebhookReceiver();
    receiver.reply = (call) => (call.path === '/fail' ? { status: 500 } : { status: 204 });
    await receiver.start();
    seen = 0;
  });
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    await receiver.stop();
  });

  async function startEngine(trigger: Record<string, unknown>) {
    engine = await createEngine({
      databaseUrl: db.url,
      metadata: { object: metadata(trigger) },
      environment: { ...ENVIRONMENT, EVENT_WEBHOOK_HANDLER: receiver.url },
      stringifyNumericTypes: true,
      poolSize: 4,
    });
    url = (await engine.listen(0)).url;
  }

  async function graphql(query: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${url}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  /** The next webhook call, checked as the corpus runner checks it. */
  async function expectEvent(expected: Expected, withinMs = 3_000): Promise<ReceivedCall> {
    const calls = await receiver.waitFor(
      (all) => all.length > seen,
      withinMs,
      `event ${expected.op}`,
    );
    const call = calls[seen++]!;
    expect(call.path).toBe(expected.path ?? '/');
    for (const key of ['id', 'created_at', 'event', 'trigger'])
      expect(call.body).toHaveProperty(key);
    expect(call.body['trigger']).toEqual({ name: expected.trigger });
    expect(call.body['table']).toEqual({ schema: 'hge_tests', name: 'test_t1' });
    const event = call.body['event'] as Record<string, unknown>;
    expect(event['op']).toBe(expected.op);
    expect(event['data']).toEqual(expected.data);
    expect(event['session_variables']).toEqual(
      expected.session_variables ?? { 'x-hasura-role': 'admin' },
    );
    expect((call.body['delivery_info'] as { current_retry: number }).current_retry).toBe(
      expected.current_retry ?? 0,
    );
    return call;
  }

  async function expectNoEvent(ms: number) {
    await sleep(ms);
    expect(receiver.calls.length).toBe(seen);
  }

  it('events_basic: insert, update and delete each deliver one event', async () => {
    await startEngine({
      name: 't1_all',
      definition: allColumns,
      retry_conf: defaultRetry,
      webhook: '{{EVENT_WEBHOOK_HANDLER}}',
    });
    await graphql(INSERT);
    await expectEvent({
      trigger: 't1_all',
      op: 'INSERT',
      data: { old: null, new: { c1: 1, c2: 'hello' } },
    });
    await graphql(UPDATE_C2);
    await expectEvent({
      trigger: 't1_all',
      op: 'UPDATE',
      data: { old: { c1: 1, c2: 'hello' }, new: { c1: 1, c2: 'world' } },
    });
    await graphql(DELETE(1));
    await expectEvent({
      trigger: 't1_all',
      op: 'DELETE',
      data: { old: { c1: 1, c2: 'world' }, new: null },
    });
    await expectNoEvent(500);
  });

  it("events_basic: the mutating request's session variables are in the payload", async () => {
    await startEngine({
      name: 't1_all',
      definition: allColumns,
      retry_conf: defaultRetry,
      webhook: '{{EVENT_WEBHOOK_HANDLER}}',
    });
    await graphql(INSERT, {
      'X-Hasura-Role': 'admin',
      'X-Hasura-Allowed-Roles': "['admin','user']",
      'X-Hasura-User-Id': '1',
    });
    await expectEvent({
      trigger: 't1_all',
      op: 'INSERT',
      data: { old: null, new: { c1: 1, c2: 'hello' } },
      session_variables: {
        'x-hasura-role': 'admin',
        'x-hasura-allowed-roles': "['admin','user']",
        'x-hasura-user-id': '1',
      },
    });
    await graphql(UPDATE_C2, {
      'X-Hasura-Role': 'admin',
      'X-Hasura-Random': 'some_random_info',
      'X-Random-Header': 'not_session_variable',
    });
    await expectEvent({
      trigger: 't1_all',
      op: 'UPDATE',
      data: { old: { c1: 1, c2: 'hello' }, new: { c1: 1, c2: 'world' } },
      session_variables: { 'x-hasura-role': 'admin', 'x-hasura-random': 'some_random_info' },
    });
  });

  it('events_insert_only: update and delete deliver nothing', async () => {
    await startEngine({
      name: 't1_insert',
      definition: { enable_manual: false, insert: { columns: '*' } },
      webhook: '{{EVENT_WEBHOOK_HANDLER}}',
    });
    await graphql(INSERT);
    await expectEvent({
      trigger: 't1_insert',
      op: 'INSERT',
      data: { old: null, new: { c1: 1, c2: 'hello' } },
    });
    await graphql(UPDATE_C2);
    await graphql(DELETE(1));
    await expectNoEvent(1_500);
  });

  it('events_selected_cols: an update of an unlisted column delivers nothing', async () => {
    await startEngine({
      name: 't1_cols',
      definition: {
        enable_manual: false,
        insert: { columns: '*' },
        update: { columns: ['c1'] },
        delete: { columns: '*' },
      },
      retry_conf: { num_retries: 10, interval_sec: 100 },
      webhook: '{{EVENT_WEBHOOK_HANDLER}}',
    });
    await graphql(INSERT);
    await expectEvent({
      trigger: 't1_cols',
      op: 'INSERT',
      data: { old: null, new: { c1: 1, c2: 'hello' } },
    });
    await graphql(UPDATE_C2);
    await expectNoEvent(1_500);
    await graphql(UPDATE_C1);
    await expectEvent({
      trigger: 't1_cols',
      op: 'UPDATE',
      data: { old: { c1: 1, c2: 'world' }, new: { c1: 2, c2: 'world' } },
    });
    await graphql(DELETE(2));
    await expectEvent({
      trigger: 't1_cols',
      op: 'DELETE',
      data: { old: { c1: 2, c2: 'world' }, new: null },
    });
  });

  it('events_selected_payload: the payload holds only the listed columns', async () => {
    await startEngine({
      name: 't1_payload',
      definition: {
        enable_manual: false,
        insert: { columns: '*', payload: '*' },
        update: { columns: '*', payload: ['c1'] },
        delete: { columns: '*', payload: ['c2'] },
      },
      retry_conf: { num_retries: 10, interval_sec: 100 },
      webhook: '{{EVENT_WEBHOOK_HANDLER}}',
    });
    await graphql(INSERT);
    await expectEvent({
      trigger: 't1_payload',
      op: 'INSERT',
      data: { old: null, new: { c1: 1, c2: 'hello' } },
    });
    await graphql(UPDATE_C2);
    await expectEvent({
      trigger: 't1_payload',
      op: 'UPDATE',
      data: { old: { c1: 1 }, new: { c1: 1 } },
    });
    await graphql(UPDATE_C1);
    await expectEvent({
      trigger: 't1_payload',
      op: 'UPDATE',
      data: { old: { c1: 1 }, new: { c1: 2 } },
    });
    await graphql(DELETE(2));
    await expectEvent({
      trigger: 't1_payload',
      op: 'DELETE',
      data: { old: { c2: 'world' }, new: null },
    });
  });

  it('events_headers: value and value_from_env headers reach the webhook', async () => {
    await startEngine({
      name: 't1_all',
      definition: allColumns,
      retry_conf: defaultRetry,
      webhook: '{{EVENT_WEBHOOK_HANDLER}}',
      headers: [
        { name: 'X-Header-From-Value', value: 'MyValue' },
        { name: 'X-Header-From-Env', value_from_env: 'EVENT_WEBHOOK_HEADER' },
      ],
    });
    await graphql(INSERT);
    const call = await expectEvent({
      trigger: 't1_all',
      op: 'INSERT',
      data: { old: null, new: { c1: 1, c2: 'hello' } },
    });
    expect(call.headers['x-header-from-value']).toBe('MyValue');
    expect(call.headers['x-header-from-env']).toBe('MyEnvValue');
    expect(call.headers['content-type']).toBe('application/json');
  });

  it('events_webhook_env: the webhook URL comes from webhook_from_env', async () => {
    await startEngine({
      name: 't1_all',
      definition: allColumns,
      retry_conf: defaultRetry,
      webhook_from_env: 'EVENT_WEBHOOK_HANDLER',
    });
    await graphql(INSERT);
    await expectEvent({
      trigger: 't1_all',
      op: 'INSERT',
      data: { old: null, new: { c1: 1, c2: 'hello' } },
    });
    await graphql(DELETE(1));
    await expectEvent({
      trigger: 't1_all',
      op: 'DELETE',
      data: { old: { c1: 1, c2: 'hello' }, new: null },
    });
  });

  it('events_retry_conf: a failing webhook is called 1 + num_retries times, interval_sec apart', async () => {
    await startEngine({
      name: 't1_retry',
      definition: allColumns,
      retry_conf: { num_retries: 4, interval_sec: 1 },
      webhook: '{{EVENT_WEBHOOK_HANDLER}}/fail',
    });
    await graphql(INSERT);
    for (let retry = 0; retry <= 4; retry++) {
      await expectEvent({
        trigger: 't1_retry',
        op: 'INSERT',
        data: { old: null, new: { c1: 1, c2: 'hello' } },
        path: '/fail',
        current_retry: retry,
      });
    }
    await expectNoEvent(2_000);
  });

  it('a rolled-back mutation delivers nothing', async () => {
    await startEngine({
      name: 't1_all',
      definition: allColumns,
      retry_conf: defaultRetry,
      webhook: '{{EVENT_WEBHOOK_HANDLER}}',
    });
    await db.pool.query('ALTER TABLE hge_tests.test_t1 ADD CONSTRAINT c1_small CHECK (c1 < 10)');
    try {
      const response = await fetch(`${url}/v1/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query:
            'mutation { a: insert_hge_tests_test_t1(objects: [{c1: 1}]) { affected_rows } b: insert_hge_tests_test_t1(objects: [{c1: 11}]) { affected_rows } }',
        }),
      });
      expect(((await response.json()) as { errors?: unknown[] }).errors).toHaveLength(1);
      await expectNoEvent(1_500);
    } finally {
      await db.pool.query('ALTER TABLE hge_tests.test_t1 DROP CONSTRAINT c1_small');
    }
  });
});
