import { describe, expect, it } from 'vitest';

import { InvalidEnvironmentError } from '@app/shared/env';

import { parseActionsEnv } from '../env.ts';

/** The notification and rates variables of the actions service's environment. */
describe('actions env: mail, links and rates', () => {
  const base = { DATABASE_URL: 'postgres://localhost/x' };

  it('defaults to the outbox, the local portal and the offline snapshot', () => {
    const env = parseActionsEnv(base);
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.ACTIONS_OUTBOX_DIR).toMatch(/\.data[\\/]outbox[\\/]?$/);
    expect(env.PUBLIC_WEB_URL).toBe('http://localhost:3000');
    expect(env.SUPPORT_INBOX_EMAIL).toBeUndefined();
    expect(env.RATES_PROVIDER).toEqual(['offline']);
  });

  it('reads a preference list of providers and refuses unknown or repeated ones', () => {
    expect(parseActionsEnv({ ...base, RATES_PROVIDER: 'binance, kraken' }).RATES_PROVIDER).toEqual([
      'binance',
      'kraken',
    ]);
    for (const RATES_PROVIDER of ['coinbase', 'binance,binance', ','])
      expect(() => parseActionsEnv({ ...base, RATES_PROVIDER })).toThrow(InvalidEnvironmentError);
  });

  it('refuses a web URL with a path and an inbox that is not an address', () => {
    expect(() => parseActionsEnv({ ...base, PUBLIC_WEB_URL: 'https://x.example/app/' })).toThrow(
      InvalidEnvironmentError,
    );
    expect(() => parseActionsEnv({ ...base, SUPPORT_INBOX_EMAIL: 'support' })).toThrow(
      InvalidEnvironmentError,
    );
  });

  it('requires SMTP and market providers in production', () => {
    const production = {
      ...base,
      NODE_ENV: 'production',
      ACTIONS_SECRET: 'a-real-secret-0123456789',
      QUOTE_MAX_RATE_AGE_SECONDS: '300',
    };
    const issues = (source: Record<string, string>) => {
      try {
        parseActionsEnv(source);
        return {};
      } catch (error) {
        return (error as InvalidEnvironmentError).issues;
      }
    };
    expect(Object.keys(issues(production))).toEqual(
      expect.arrayContaining(['SMTP_URL', 'RATES_PROVIDER']),
    );
    const configured = issues({
      ...production,
      SMTP_URL: 'smtps://u:p@mail.example:465',
      RATES_PROVIDER: 'kraken',
    });
    expect(configured).not.toHaveProperty('SMTP_URL');
    expect(configured).not.toHaveProperty('RATES_PROVIDER');
  });
});
