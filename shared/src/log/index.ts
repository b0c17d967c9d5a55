import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/** Paths never written to a log: credentials, tokens and Telegram's signed data. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.code',
  '*.initData',
  '*.hash',
  '*.adminSecret',
];

/** One JSON logger per service, named so the launcher and log readers can tell them apart. */
export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  return pino({
    name: service,
    level: options.level ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...options,
  });
}
