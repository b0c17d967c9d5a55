import type { Request } from 'express';

import type { Logger } from '@app/shared/log';
import type { Mailer } from '@app/shared/mail';

import type { JwtSigner } from './crypto/jwt.ts';
import type { Db } from './db/index.ts';
import type { AuthEnv } from './env.ts';
import { resolveLocale, type Locale } from './i18n.ts';
import type { Limiter } from './rate-limit.ts';

/** Everything a route needs, built once by createApp. */
export interface AppContext {
  env: AuthEnv;
  db: Db;
  logger: Logger;
  mailer: Mailer;
  jwt: JwtSigner;
  limit: Limiter;
  /** Milliseconds since the epoch; injectable for tests. */
  now: () => number;
  telegramSecret: Buffer;
  /** A verify that always fails and costs what a real one costs (unknown e-mails). */
  dummyVerify: () => Promise<false>;
  /** Runs work after the response (mail, slow bookkeeping); failures are logged. */
  background: (name: string, work: () => Promise<unknown>) => void;
}

/** Facts about the request the flows use (all from the connection, none from the body). */
export interface RequestInfo {
  ip: string | null;
  userAgent: string | null;
  locale: Locale;
}

export function requestInfo(req: Request): RequestInfo {
  const body: unknown = req.body;
  const explicit =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)['locale']
      : undefined;
  const userAgent = req.get('user-agent');
  return {
    ip: req.ip ?? null,
    // auth.refresh_tokens.user_agent holds at most 512 characters.
    userAgent: userAgent ? userAgent.slice(0, 512) : null,
    locale: resolveLocale(explicit, req.get('accept-language')),
  };
}
