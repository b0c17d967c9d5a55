import { describe, expect, it } from 'vitest';

import { Metadata } from '../metadata/model.ts';

import {
  cronRetryPolicy,
  cronTriggerTarget,
  eventTriggerTarget,
  resolveTemplate,
  tableEventTriggers,
} from './config.ts';

const metadataWith = (triggers: unknown[], cron: unknown[] = []) =>
  Metadata.parse({
    version: 3,
    sources: [
      {
        name: 'default',
        tables: [{ table: { schema: 'public', name: 't' }, event_triggers: triggers }],
      },
    ],
    cron_triggers: cron,
  });

describe('resolveTemplate', () => {
  it('replaces {{VAR}} anywhere in the text', () => {
    expect(resolveTemplate('{{BASE}}/hook/{{ PART }}', { BASE: 'http://h:1', PART: 'x' })).toEqual({
      ok: true,
      value: 'http://h:1/hook/x',
    });
  });
  it('names the first variable that is not set', () => {
    expect(resolveTemplate('{{A}}{{B}}', { B: 'b' })).toEqual({
      ok: false,
      error: "environment variable 'A' is not set",
    });
  });
});

describe('eventTriggerTarget', () => {
  const environment = {
    EVENT_WEBHOOK_HANDLER: 'http://localhost:5592',
    EVENT_WEBHOOK_HEADER: 'MyEnvValue',
  };

  it('resolves webhook templates and both kinds of header, logging env headers by name only', () => {
    const [entry] = tableEventTriggers(
      metadataWith([
        {
          name: 't1_all',
          definition: { insert: { columns: '*' } },
          webhook: '{{EVENT_WEBHOOK_HANDLER}}/fail',
          headers: [
            { name: 'X-Header-From-Value', value: 'MyValue' },
            { name: 'X-Header-From-Env', value_from_env: 'EVENT_WEBHOOK_HEADER' },
          ],
        },
      ]),
    );
    expect(eventTriggerTarget(entry!.trigger, environment)).toEqual({
      ok: true,
      value: {
        url: 'http://localhost:5592/fail',
        headers: [
          ['X-Header-From-Value', 'MyValue'],
          ['X-Header-From-Env', 'MyEnvValue'],
        ],
        loggedHeaders: [
          { name: 'X-Header-From-Value', value: 'MyValue' },
          { name: 'X-Header-From-Env', value_from_env: 'EVENT_WEBHOOK_HEADER' },
        ],
      },
    });
  });

  it('reads webhook_from_env', () => {
    const [entry] = tableEventTriggers(
      metadataWith([
        {
          name: 't1_all',
          definition: { insert: { columns: '*' } },
          webhook_from_env: 'EVENT_WEBHOOK_HANDLER',
        },
      ]),
    );
    expect(eventTriggerTarget(entry!.trigger, environment)).toMatchObject({
      ok: true,
      value: { url: 'http://localhost:5592/' },
    });
    expect(eventTriggerTarget(entry!.trigger, {})).toEqual({
      ok: false,
      error: "environment variable 'EVENT_WEBHOOK_HANDLER' is not set",
    });
  });

  it('reports a header whose variable is not set', () => {
    const [entry] = tableEventTriggers(
      metadataWith([
        {
          name: 'x',
          definition: {},
          webhook: 'http://h/',
          headers: [{ name: 'H', value_from_env: 'NOPE' }],
        },
      ]),
    );
    expect(eventTriggerTarget(entry!.trigger, {})).toEqual({
      ok: false,
      error: "environment variable 'NOPE' of header 'H' is not set",
    });
  });

  it('uses Hasura retry defaults', () => {
    const [entry] = tableEventTriggers(
      metadataWith([{ name: 'x', definition: {}, webhook: 'http://h/' }]),
    );
    expect(entry!.trigger.retry_conf).toEqual({
      num_retries: 0,
      interval_sec: 10,
      timeout_sec: 60,
    });
  });
});

describe('tableEventTriggers', () => {
  it('refuses names that cannot become SQL trigger names', () => {
    expect(() =>
      tableEventTriggers(
        metadataWith([{ name: 'bad name', definition: {}, webhook: 'http://h/' }]),
      ),
    ).toThrow(/may contain only/);
    expect(() =>
      tableEventTriggers(
        metadataWith([{ name: 'x'.repeat(43), definition: {}, webhook: 'http://h/' }]),
      ),
    ).toThrow(/longer than 42/);
  });
  it('refuses a trigger without a webhook, and duplicates', () => {
    expect(() => tableEventTriggers(metadataWith([{ name: 'a', definition: {} }]))).toThrow(
      /neither webhook/,
    );
    expect(() =>
      tableEventTriggers(
        metadataWith([
          { name: 'a', definition: {}, webhook: 'http://h/' },
          { name: 'a', definition: {}, webhook: 'http://h/' },
        ]),
      ),
    ).toThrow(/defined twice/);
  });
});

describe('cron triggers', () => {
  it('resolves the webhook and reads tolerance_seconds', () => {
    const metadata = metadataWith(
      [],
      [
        {
          name: 'rates',
          webhook: '{{ACTIONS}}/cron',
          schedule: '*/5 * * * *',
          retry_conf: {
            num_retries: 2,
            retry_interval_seconds: 5,
            timeout_seconds: 7,
            tolerance_seconds: 60,
          },
        },
      ],
    );
    const [cron] = metadata.cron_triggers;
    expect(cronTriggerTarget(cron!, { ACTIONS: 'http://a:4100' })).toMatchObject({
      ok: true,
      value: { url: 'http://a:4100/cron' },
    });
    expect(cronRetryPolicy(cron!)).toEqual({
      numRetries: 2,
      intervalSeconds: 5,
      timeoutSeconds: 7,
      toleranceSeconds: 60,
    });
  });
});
