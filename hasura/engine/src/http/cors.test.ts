import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { applyCors, corsPolicy } from './cors.ts';

describe('CORS domains', () => {
  it('allows every origin with *', () => {
    expect(corsPolicy('*')?.('https://anything.example')).toBe(true);
  });

  it('allows listed origins and wildcard subdomains only', () => {
    const allowed = corsPolicy('http://localhost:3000, https://*.exchange.example')!;
    expect(allowed('http://localhost:3000')).toBe(true);
    expect(allowed('https://app.exchange.example')).toBe(true);
    expect(allowed('https://a.b.exchange.example')).toBe(true);
    expect(allowed('https://exchange.example')).toBe(false);
    expect(allowed('https://evil.example/.exchange.example')).toBe(false);
    expect(allowed('http://localhost:3001')).toBe(false);
  });

  it('is off without domains', () => {
    expect(corsPolicy(undefined)).toBeUndefined();
  });
});

describe('CORS on a server', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const policy = corsPolicy('http://localhost:3000');
    server = createServer((request, response) => {
      if (applyCors(policy, request, response)) return;
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/graphql`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers an allowed preflight with 204 and what it asked for', async () => {
    const response = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('gives another origin no CORS headers, and leaves same-origin requests alone', async () => {
    const refused = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const plain = await fetch(url, { method: 'POST', body: '{}' });
    expect(await plain.text()).toBe('ok');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const allowed = await fetch(url, {
      method: 'POST',
      headers: { origin: 'http://localhost:3000' },
      body: '{}',
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });
});
