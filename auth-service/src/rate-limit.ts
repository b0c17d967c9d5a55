import { createHash } from 'node:crypto';
import { isIPv4 } from 'node:net';

import { countHits, type Hit } from './db/rate-limits.ts';
import type { Db } from './db/index.ts';
import { AuthError } from './errors.ts';

/** One limit: at most `limit` attempts per `windowSeconds`. */
export interface Limit {
  limit: number;
  windowSeconds: number;
}

/** Limits per client address and per subject (an e-mail, a Telegram id, an account). */
export interface LimitRule {
  ip: Limit;
  subject: Limit;
}

export type LimitName =
  | 'login'
  | 'code'
  | 'register'
  | 'reset'
  | 'quickAuth'
  | 'telegram'
  | 'changePassword'
  | 'twoFactor'
  | 'telegramLink'
  | 'addEmail';

/*
 * Defaults, per fixed window. Password checks are the cheapest DoS on the system
 * (PERFORMANCE.md section 3) and e-mails cost reputation, so those are the tightest.
 * AUTH_RATE_LIMIT_FACTOR multiplies every limit (the benchmark raises it).
 */
export const DEFAULT_LIMITS: Record<LimitName, LimitRule> = {
  login: { ip: { limit: 60, windowSeconds: 900 }, subject: { limit: 10, windowSeconds: 900 } },
  code: { ip: { limit: 30, windowSeconds: 900 }, subject: { limit: 15, windowSeconds: 900 } },
  register: { ip: { limit: 10, windowSeconds: 3600 }, subject: { limit: 5, windowSeconds: 3600 } },
  reset: { ip: { limit: 10, windowSeconds: 3600 }, subject: { limit: 5, windowSeconds: 3600 } },
  quickAuth: {
    ip: { limit: 20, windowSeconds: 3600 },
    subject: { limit: 10, windowSeconds: 3600 },
  },
  // Counted after Telegram's signature is checked, so each attempt is a real Telegram user's
  // launch: the person (their Telegram id) is the limit; the address only bounds a flood,
  // loosely, since a mobile carrier puts thousands of people behind one address.
  telegram: { ip: { limit: 600, windowSeconds: 900 }, subject: { limit: 30, windowSeconds: 900 } },
  changePassword: {
    ip: { limit: 20, windowSeconds: 900 },
    subject: { limit: 10, windowSeconds: 900 },
  },
  // A password check (or a mailed code) per attempt, as at login.
  twoFactor: { ip: { limit: 60, windowSeconds: 900 }, subject: { limit: 10, windowSeconds: 900 } },
  // Link tokens for the bot (per account): each is a secret worth 15 minutes of linking.
  telegramLink: {
    ip: { limit: 30, windowSeconds: 900 },
    subject: { limit: 10, windowSeconds: 900 },
  },
  // Each request mails an address: counted per account and per address (two subjects, so the
  // address limit of a client counts twice), as tight as sign-up.
  addEmail: { ip: { limit: 20, windowSeconds: 3600 }, subject: { limit: 5, windowSeconds: 3600 } },
};

/**
 * The address a limit counts against: IPv4 as is, IPv6 by its /64 (one subscriber usually
 * holds a whole /64, so counting single addresses would be no limit at all).
 */
export function ipKey(ip: string | null): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const full = ip.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${full.slice(0, 4).join(':')}::/64`;
}

const subjectKey = (subject: string) =>
  createHash('sha256').update(subject).digest('base64url').slice(0, 32);

export type Limiter = (name: LimitName, ip: string | null, subject?: string) => Promise<void>;

/** Counts an attempt; throws `too-many-requests` with `retryAfter` when over a limit. */
export function createLimiter(
  db: Db,
  rules: Record<LimitName, LimitRule>,
  factor: number,
): Limiter {
  const scaled = (limit: Limit): Limit => ({
    limit: Math.max(1, Math.floor(limit.limit * factor)),
    windowSeconds: limit.windowSeconds,
  });
  return async (name, ip, subject) => {
    const rule = rules[name];
    const hits: Hit[] = [{ key: `${name}:ip:${ipKey(ip)}`, ...scaled(rule.ip) }];
    if (subject !== undefined) {
      hits.push({ key: `${name}:sub:${subjectKey(subject)}`, ...scaled(rule.subject) });
    }
    const wait = await countHits(db, hits);
    if (wait > 0) throw new AuthError('too-many-requests', { retryAfter: wait });
  };
}
