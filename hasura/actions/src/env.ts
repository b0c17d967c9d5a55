import * as z from 'zod';

import { NodeEnv, parseEnv, port, secret } from '@app/shared/env';

/** Development default of the secret the engine sends as `x-actions-secret` (metadata headers). */
export const DEV_ACTIONS_SECRET = 'dev-only-actions-secret';

/**
 * Ten years: the seeded offline rates snapshot (hasura/seeds) keeps quoting in development.
 * Production refuses anything above one day and must set a real value (e.g. 300).
 */
export const DEV_MAX_RATE_AGE_SECONDS = 315_360_000;
const ONE_DAY_SECONDS = 86_400;

export const ActionsEnv = z
  .object({
    NODE_ENV: NodeEnv,
    ACTIONS_PORT: port(4100),
    ACTIONS_HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z.string().min(1),
    ACTIONS_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** Shared with the engine (`value_from_env: ACTIONS_SECRET` in hasura/metadata/actions.yaml). */
    ACTIONS_SECRET: secret(DEV_ACTIONS_SECRET, 16),
    /** A quote on a price older than this is refused (`stale-rate`). */
    QUOTE_MAX_RATE_AGE_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(DEV_MAX_RATE_AGE_SECONDS)
      .default(DEV_MAX_RATE_AGE_SECONDS),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  })
  .superRefine((env, context) => {
    if (env.NODE_ENV === 'production' && env.QUOTE_MAX_RATE_AGE_SECONDS > ONE_DAY_SECONDS) {
      context.addIssue({
        code: 'custom',
        path: ['QUOTE_MAX_RATE_AGE_SECONDS'],
        message: `must be at most ${ONE_DAY_SECONDS} in production (the default is for the development snapshot)`,
      });
    }
  });
export type ActionsEnv = z.infer<typeof ActionsEnv>;

/** Parses (and in production, vets) an environment; throws InvalidEnvironmentError. */
export const parseActionsEnv = (source: Record<string, string | undefined>): ActionsEnv =>
  parseEnv(ActionsEnv, source);
