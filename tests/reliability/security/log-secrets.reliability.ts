import { randomBytes } from 'node:crypto';

import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { startEmbeddedPostgres, type EmbeddedPostgres } from '@app/engine/embedded-postgres';
import { DEV_TELEGRAM_BOT_TOKEN } from '@app/shared/env';

import { recordFigures } from '../figures.ts';

import { Api, dataOf, signedInitData, uniqueEmail, type Tokens } from './api.ts';
import { startRawMailbox, type RawMailbox } from './mail.ts';
import { portsAt, startStack, type Stack } from './stack.ts';

/*
 * No secret or token ever in a log (issue 11, hostile input). The whole stack runs with
 * LOG_LEVEL=debug, fresh secrets of its own (none a development default, so each is a string
 * found nowhere else) and a fresh embedded database; every line every service prints is kept.
 * A full run goes through it: sign-up, 2FA switched on, login with the e-mailed code, refresh,
 * a password reset by its e-mailed link, an order through staff steps to completed and its
 * secret link, a live subscription signed in by its connection-init payload, a support
 * request, a Telegram sign-in by initData, and the failures people cause (a wrong password, a
 * wrong code, a forged token, a bogus refresh token). Then the output is searched for every
 * access and refresh token, code, password, reset and order-link token, initData signature,
 * Authorization header value and configured secret.
 */

const OFFSET = 8600;

/** A secret of `bytes` random bytes, base64url (letters, digits, - and _). */
const fresh = (prefix: string, bytes = 24) =>
  `${prefix}${randomBytes(bytes).toString('base64url')}`;

const SECRETS = {
  ACTIONS_SECRET: fresh('actions-'),
  HASURA_GRAPHQL_ADMIN_SECRET: fresh('admin-'),
  JWT_KEY: fresh('jwt-', 32),
  ORDER_LINK_SECRET: fresh('link-', 32),
  BOT_EVENTS_SECRET: fresh('events-'),
  AUTH_CODE_PEPPER: fresh('pepper-', 32),
  TELEGRAM_WEBHOOK_SECRET: fresh('webhook'),
  ADMIN_PASSWORD: fresh('admin-pw-'),
  DATABASE_PASSWORD: fresh('db-pw-'),
};

let stack: Stack;
let database: EmbeddedPostgres;
let mailbox: RawMailbox;
let api: Api;
/** Every value that must not be in a log, by what it is. */
const sensitive = new Map<string, string>();
const remember = (what: string, value: string | undefined) => {
  if (!value) throw new Error(`${what}: nothing to remember`);
  sensitive.set(what, value);
};
let startedMs = 0;
let driveMs = 0;

beforeAll(async () => {
  const ports = portsAt(OFFSET);
  mailbox = await startRawMailbox(ports.smtp);
  // A database given by DATABASE_URL, as production gives one, with a password of its own
  // (the embedded server takes any): the launcher and every service get it.
  database = await startEmbeddedPostgres({ port: ports.database });
  const databaseUrl = database.url.replace(
    'postgres:postgres@',
    `postgres:${SECRETS.DATABASE_PASSWORD}@`,
  );
  const started = Date.now();
  stack = await startStack({
    offset: OFFSET,
    env: {
      LOG_LEVEL: 'debug',
      DATABASE_URL: databaseUrl,
      ACTIONS_SECRET: SECRETS.ACTIONS_SECRET,
      HASURA_GRAPHQL_ADMIN_SECRET: SECRETS.HASURA_GRAPHQL_ADMIN_SECRET,
      HASURA_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: SECRETS.JWT_KEY }),
      ORDER_LINK_SECRET: SECRETS.ORDER_LINK_SECRET,
      BOT_EVENTS_SECRET: SECRETS.BOT_EVENTS_SECRET,
      AUTH_CODE_PEPPER: SECRETS.AUTH_CODE_PEPPER,
      TELEGRAM_WEBHOOK_SECRET: SECRETS.TELEGRAM_WEBHOOK_SECRET,
      ADMIN_PASSWORD: SECRETS.ADMIN_PASSWORD,
      SUPPORT_INBOX_EMAIL: 'support-inbox@example.com',
    },
  });
  startedMs = Date.now() - started;
  api = new Api({ ...stack, adminSecret: SECRETS.HASURA_GRAPHQL_ADMIN_SECRET });
  for (const [name, value] of Object.entries(SECRETS)) remember(name, value);
  remember('DATABASE_URL', databaseUrl);
  // The bot runs its sandbox under the development token (and the auth service checks initData
  // against it): it is this stack's bot token.
  remember('TELEGRAM_BOT_TOKEN', DEV_TELEGRAM_BOT_TOKEN);
  remember('TELEGRAM_BOT_TOKEN (secret part)', DEV_TELEGRAM_BOT_TOKEN.split(':')[1]);
  const drive = Date.now();
  await fullRun();
  driveMs = Date.now() - drive;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await database?.stop();
  await mailbox?.close();
});

const rememberTokens = (what: string, tokens: Tokens) => {
  remember(`${what}: access token`, tokens.accessToken);
  remember(`${what}: refresh token`, tokens.refreshToken);
  remember(`${what}: Authorization header`, `Bearer ${tokens.accessToken}`);
};

/** The first message to `to` after `since` messages whose subject matches. */
const mailTo = (to: string, subject: RegExp) =>
  mailbox.waitFor(to, (mail) => subject.test(mail.parsed.subject ?? ''), 30_000);

async function fullRun(): Promise<void> {
  // Sign-up.
  const email = uniqueEmail('secrets');
  const password = fresh('pw-', 12);
  remember('password at sign-up', password);
  const signedUp = await api.register(email, password);
  rememberTokens('sign-up', signedUp);

  // 2FA on, then a login with the e-mailed code (a wrong code first, as people mistype).
  // At the auth service, with the password (issue 19: never by GraphQL).
  expect(
    (
      await api.auth(
        '/two-factor',
        { enabled: true, password },
        { authorization: `Bearer ${signedUp.accessToken}` },
      )
    ).status,
  ).toBe(200);
  const wrongPassword = fresh('wrong-pw-', 12);
  remember('a wrong password', wrongPassword);
  expect((await api.auth('/login', { email, password: wrongPassword })).status).toBe(401);
  const challenge = await api.auth<{ token: string }>('/login', { email, password });
  remember('2FA ticket', challenge.body.token);
  const codeMail = await mailTo(email, /sign-in code/);
  const code = /: (\d{6})\b/.exec(codeMail.parsed.text ?? '')![1]!;
  remember('2FA code', code);
  const wrongCode = code === '000000' ? '000001' : '000000';
  await api.auth('/login_with_2fa', { token: challenge.body.token, code: wrongCode });
  const loggedIn = await api.auth<Tokens>('/login_with_2fa', { token: challenge.body.token, code });
  expect(loggedIn.status).toBe(200);
  rememberTokens('login with 2FA', loggedIn.body);

  // Refresh, and a refresh token that was never issued.
  const refreshed = await api.auth<Tokens>('/refresh_tokens', {
    refreshToken: loggedIn.body.refreshToken,
  });
  expect(refreshed.status).toBe(200);
  rememberTokens('refresh', refreshed.body);
  const bogusRefresh = fresh('', 32);
  remember('a bogus refresh token', bogusRefresh);
  expect((await api.auth('/refresh_tokens', { refreshToken: bogusRefresh })).status).toBe(401);

  // A signed-in change of password (Bearer header), then a reset by the e-mailed link.
  const changedPassword = fresh('pw2-', 12);
  remember('password set signed in', changedPassword);
  const changed = await api.auth(
    '/change-password',
    { currentPassword: password, password: changedPassword, confirmPassword: changedPassword },
    { authorization: `Bearer ${refreshed.body.accessToken}` },
  );
  expect(changed.status).toBe(200);
  expect((await api.auth('/reset_password', { email })).status).toBe(200);
  const resetMail = await mailTo(email, /Reset your password/);
  const resetToken = /\/change-password\/([A-Za-z0-9_-]+)/.exec(resetMail.parsed.text ?? '')![1]!;
  remember('reset token', resetToken);
  const resetPassword = fresh('pw3-', 12);
  remember('password set by reset', resetPassword);
  const reset = await api.auth('/change-password', {
    token: resetToken,
    password: resetPassword,
    confirmPassword: resetPassword,
  });
  expect(reset.status).toBe(200);

  // A second customer (no 2FA) makes the order.
  const customer = await api.register(uniqueEmail('secrets-order'), fresh('pw4-', 12));
  rememberTokens('customer', customer);

  // A forged token and a malformed Authorization header, on the engine and the auth service.
  const forged = `${customer.accessToken.split('.').slice(0, 2).join('.')}.${fresh('', 32)}`;
  remember('a forged access token', forged);
  const refused = await api.graphql(
    'query { currencies { code } }',
    {},
    {
      authorization: `Bearer ${forged}`,
    },
  );
  expect(refused.errors).toBeDefined();
  await api.auth('/logout', {}, { authorization: `Bearer ${forged}` });

  // Broken requests that carry secrets: a cut-off JSON body and a text body to the auth
  // service, a malformed body and a syntax error around a token to the engine, and a
  // WebSocket signed in with a forged token.
  const inBrokenBodies = fresh('broken-pw-', 12);
  remember('a password in a broken body', inBrokenBodies);
  for (const [type, body] of [
    ['application/json', `{"email":"${email}","password":"${inBrokenBodies}"`],
    ['text/plain', `password=${inBrokenBodies}`],
  ] as const) {
    const answer = await fetch(`${stack.authUrl}/login`, {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
  }
  for (const body of [
    `{"query":"query { currencies { code } }","variables":{"token":"${inBrokenBodies}"`,
    JSON.stringify({ query: `query { orderByLink(token: "${inBrokenBodies}" { number } }` }),
  ]) {
    await fetch(stack.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${forged}` },
      body,
    });
  }
  const forgedSocket = createClient({
    url: stack.graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { headers: { Authorization: `Bearer ${forged}` } },
    retryAttempts: 0,
  });
  await new Promise<void>((resolve) => {
    forgedSocket.subscribe(
      { query: 'subscription { transactions { id } }' },
      { next: () => resolve(), error: () => resolve(), complete: () => resolve() },
    );
  });
  await forgedSocket.dispose();

  // An order through the staff steps to completed, its secret link opened on the portal.
  const {
    portal_users: [me],
  } = dataOf<{ portal_users: Array<{ email: string }> }>(
    'me',
    await api.as(customer, 'query { portal_users { email } }'),
  );
  const order = dataOf(
    'createExchange',
    await api.createOrder(customer, {
      email: me!.email,
      fullName: 'Log Reader',
      reason: 'Savings',
    }),
  ).createExchange;
  const adminTokens = await api.login('admin@exchange.local', SECRETS.ADMIN_PASSWORD);
  rememberTokens('admin', adminTokens);
  const asStaff = (query: string, variables: Record<string, unknown>) =>
    api.as(adminTokens, query, variables, 'administrator').then((answer) => dataOf(query, answer));
  await asStaff(
    `mutation ($id: uuid!) {
       supplyRequisites(transactionId: $id, depositAddress: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2") { status }
     }`,
    { id: order.id },
  );
  await asStaff('mutation ($id: uuid!) { confirmPayment(transactionId: $id) { status } }', {
    id: order.id,
  });
  await asStaff(
    'mutation ($id: uuid!) { completeExchange(transactionId: $id, payoutTxId: "payout-log-1") { status } }',
    { id: order.id },
  );
  const created = await mailTo(me!.email, /created/);
  const linkToken = /\/order\/([A-Za-z0-9_.-]+)/.exec(created.parsed.text ?? '')![1]!;
  remember('order link token', linkToken);
  expect((await fetch(`${stack.webUrl}/order/${linkToken}`)).status).toBe(200);
  dataOf(
    'orderByLink',
    await api.graphql(
      'query ($token: String!) { orderByLink(token: $token) { number status } }',
      { token: linkToken },
      {},
    ),
  );
  await mailTo(me!.email, /completed/);

  // A live subscription, signed in by its connection-init payload.
  const client = createClient({
    url: stack.graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { headers: { Authorization: `Bearer ${customer.accessToken}` } },
    retryAttempts: 0,
  });
  await new Promise<void>((resolve, reject) => {
    const stop = client.subscribe(
      { query: 'subscription { transactions { id status } }' },
      {
        next: () => {
          stop();
          resolve();
        },
        error: reject,
        complete: () => undefined,
      },
    );
  });
  await client.dispose();

  // A support request.
  dataOf(
    'submitSupportRequest',
    await api.supportRequest(
      { name: 'Log Reader', email: me!.email, message: 'Where is my payout?' },
      { authorization: `Bearer ${customer.accessToken}` },
    ),
  );
  await mailbox.waitFor('support-inbox@example.com', () => true, 30_000);

  // A Telegram sign-in by initData (signed with the bot token, as Telegram signs it).
  const initData = signedInitData(
    {
      id: 940_000_000 + Math.floor(Math.random() * 1_000_000),
      first_name: 'Log',
      username: 'log_reader',
    },
    DEV_TELEGRAM_BOT_TOKEN,
  );
  remember('initData signature (hash)', new URLSearchParams(initData).get('hash')!);
  rememberTokens('Telegram sign-in', await api.telegramAuth(initData));
  // The mini-app's development launch signs initData for the browser: its signature too.
  const launch = new URLSearchParams(
    await (await fetch(`${stack.webUrl}/telegram-app/dev-launch?user=940000001`)).text(),
  );
  remember(
    'dev-launch initData signature (hash)',
    new URLSearchParams(launch.get('tgWebAppData')!).get('hash')!,
  );
  await fetch(`${stack.webUrl}/telegram-app?user=940000001`);

  // A token sent as a request id (a client's mistake, or a probe): refused as an id (too long,
  // or a space), so it never reaches an access line or a forwarded header.
  for (const id of [customer.accessToken, `Bearer ${customer.accessToken}`]) {
    await api.graphql('query TokenAsRequestId { currencies { code } }', {}, { 'x-request-id': id });
    await fetch(`${stack.authUrl}/healthz`, { headers: { 'x-request-id': id } });
    await fetch(`${stack.webUrl}/`, { headers: { 'x-request-id': id } });
  }

  // Give event deliveries and mails a moment to finish (their logs are part of the run).
  await new Promise((resolve) => setTimeout(resolve, 3_000));
}

describe('the logs of a full run', () => {
  it('hold no token, code, password, secret or Authorization value', () => {
    const output = stack.output();
    const lines = output.split('\n');
    const services: Record<string, { lines: number; bytes: number }> = {};
    for (const line of lines) {
      const service = /^\[(\w+)\]/.exec(line)?.[1] ?? 'other';
      services[service] ??= { lines: 0, bytes: 0 };
      services[service].lines += 1;
      services[service].bytes += line.length + 1;
    }
    const findings: Array<{ what: string; line: string }> = [];
    for (const [what, value] of sensitive) {
      // A 6-digit code must stand alone (timestamps and ids are made of digits too).
      const pattern = /^\d{6}$/.test(value) ? new RegExp(`(?<![\\d])${value}(?![\\d])`) : undefined;
      for (const line of lines) {
        if (pattern ? pattern.test(line) : line.includes(value)) {
          findings.push({ what, line: line.slice(0, 400) });
        }
      }
    }
    recordFigures({
      check: 'security-log-secrets',
      figures: {},
      details: {
        values_scanned: sensitive.size,
        log_lines: lines.length,
        services,
        findings: findings.length,
        stack_start_ms: startedMs,
        run_ms: driveMs,
      },
    });
    // The run was logged at all (debug lines from the services), so the scan means something.
    expect(services['auth']?.lines ?? 0).toBeGreaterThan(10);
    expect(output).toMatch(/"level":20/);
    // The scan covered the access lines, with their request ids, of every service that answers
    // requests, and the engine's line per GraphQL operation and per subscription (issue 20).
    for (const service of ['web', 'engine', 'auth', 'actions', 'bot']) {
      expect(output, `${service} access lines`).toMatch(
        new RegExp(`^\\[${service}\\] \\{.*"reqId":"[A-Za-z0-9._:-]+".*"msg":"request"`, 'm'),
      );
    }
    expect(output).toMatch(
      /^\[engine\] \{.*"operationType":"mutation".*"msg":"graphql operation"/m,
    );
    expect(output).toMatch(/^\[engine\] \{.*"event":"stop".*"msg":"graphql subscription"/m);
    expect(findings).toEqual([]);
  });
});
