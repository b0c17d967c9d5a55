import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

import type { ParsedMail } from 'mailparser';

import { createApp, type AuthApp, type AuthAppOptions } from '@app/auth-service/app';
import { hashPassword } from '@app/auth-service/password';
import { parseAuthEnv } from '@app/auth-service/env';
import { DEFAULT_MIGRATIONS_DIR, migrateUp } from '@app/engine/database';
import { createLogger } from '@app/shared/log';

import type { DatabaseTarget, TestDatabase } from '../../support/databases.ts';
import type { Mailbox } from '../../support/mailbox.ts';

export { startMailbox, type Mailbox } from '../../support/mailbox.ts';

/** A database of the target with every migration applied. */
export async function migratedDatabase(target: DatabaseTarget): Promise<TestDatabase> {
  const db = await target.create();
  await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
  return db;
}

/** The 6-digit code in a code mail. */
export function codeIn(mail: ParsedMail): string {
  const match = /:\s(\d{6})\b/.exec(mail.text ?? '');
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1]!;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface AuthServer {
  url: string;
  auth: AuthApp;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Reply>;
  request(path: string, init: RequestInit): Promise<Reply>;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  limits?: AuthAppOptions['limits'];
  now?: () => number;
  mailer?: AuthAppOptions['mailer'];
}

export const TEST_BOT_TOKEN = '7000000001:AAtest-bot-token-for-integration-tests';

/** The auth app on a free loopback port, mailing through `mailbox`, limits relaxed. */
export async function startAuth(
  db: TestDatabase,
  mailbox: Mailbox | undefined,
  options: StartOptions = {},
): Promise<AuthServer> {
  const env = parseAuthEnv({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
    AUTH_RATE_LIMIT_FACTOR: '1000',
    ...(mailbox ? { SMTP_URL: mailbox.url } : {}),
    ...options.env,
  });
  const auth = createApp({
    env,
    db: db.pool,
    logger: createLogger('auth-test', { level: 'silent' }),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = auth.app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = async (path: string, init: RequestInit): Promise<Reply> => {
    const response = await fetch(`${url}${path}`, init);
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = { raw: text };
    }
    return { status: response.status, headers: response.headers, body };
  };
  return {
    url,
    auth,
    request,
    post: (path, body, headers = {}) =>
      request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await auth.close();
    },
  };
}

export interface NewUser {
  email?: string | null;
  password?: string;
  is2fa?: boolean;
  disabled?: boolean;
  roles?: Array<'admin' | 'manager'>;
  referralName?: string;
  locale?: 'en' | 'ru' | 'ua';
  verified?: boolean;
}

/** Inserts an account directly; returns its id. */
export async function createUser(db: TestDatabase, user: NewUser): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO public.portal_users
       (email, password_hash, is_2fa, is_disabled, locale, is_verified_email, referral_name)
     VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, substr(md5(gen_random_uuid()::text), 1, 12)))
     RETURNING id`,
    [
      user.email ?? null,
      user.password ? await hashPassword(user.password) : null,
      user.is2fa ?? false,
      user.disabled ?? false,
      user.locale ?? 'en',
      user.verified ?? true,
      user.referralName ?? null,
    ],
  );
  const id = rows[0]!.id;
  for (const role of user.roles ?? []) {
    await db.pool.query('INSERT INTO public.roles (user_id, role_type) VALUES ($1, $2)', [
      id,
      role,
    ]);
  }
  return id;
}

/** The payload of a JWT, unverified (the tests check what the service put in). */
export function jwtPayload(token: unknown): Record<string, unknown> {
  if (typeof token !== 'string') throw new Error('not a token');
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
}

export const PASSWORD = 'Correct-horse-42';
