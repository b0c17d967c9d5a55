import { describe, expect, it } from 'vitest';

import { ActionError } from './errors.ts';
import {
  configuredHeaders,
  forwardedClientHeaders,
  mergeHeaders,
  resolveTemplate,
  USER_AGENT,
} from './webhook.ts';

describe('handler URL and headers', () => {
  it('resolves {{VAR}} templates from the environment', () => {
    expect(resolveTemplate('{{BASE}}/x/{{ OTHER }}', { BASE: 'http://h:1', OTHER: 'y' })).toBe(
      'http://h:1/x/y',
    );
    expect(() => resolveTemplate('{{MISSING}}/x', {})).toThrow(ActionError);
  });

  it('resolves value_from_env headers', () => {
    expect(
      configuredHeaders(
        [
          { name: 'A', value: '1' },
          { name: 'B', value_from_env: 'SECRET' },
        ],
        { SECRET: 's' },
      ),
    ).toEqual([
      ['A', '1'],
      ['B', 's'],
    ]);
    expect(() => configuredHeaders([{ name: 'B', value_from_env: 'NOPE' }], {})).toThrow(
      "Environment variable 'NOPE' not set",
    );
  });

  it('forwards client headers as Hasura does, minus session, hop-by-hop and body headers', () => {
    const forwarded = forwardedClientHeaders({
      host: 'engine:8080',
      'user-agent': 'curl/8',
      origin: 'https://app',
      authorization: 'Bearer t',
      cookie: 'a=b',
      'x-request-id': 'r1',
      'x-hasura-admin-secret': 'secret',
      'X-Hasura-Role': 'user',
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'transfer-encoding': 'chunked',
      'content-length': '10',
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      upgrade: 'websocket',
      te: 'trailers',
      'proxy-authorization': 'Basic x',
      accept: '*/*',
    });
    expect(forwarded).toEqual([
      ['X-Forwarded-Host', 'engine:8080'],
      ['X-Forwarded-User-Agent', 'curl/8'],
      ['X-Forwarded-Origin', 'https://app'],
      ['authorization', 'Bearer t'],
      ['cookie', 'a=b'],
      ['x-request-id', 'r1'],
    ]);
  });

  it('lets configured headers win over defaults and client headers', () => {
    const merged = mergeHeaders(
      [
        ['Authorization', 'Bearer configured'],
        ['Content-Length', '3'],
      ],
      [
        ['authorization', 'Bearer client'],
        ['x-custom', 'yes'],
        ['connection', 'close'],
      ],
    );
    expect(Object.fromEntries(merged.map(([name, value]) => [name.toLowerCase(), value]))).toEqual({
      authorization: 'Bearer configured',
      'x-custom': 'yes',
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
    });
  });
});
