import * as z from 'zod';

/**
 * Every development default of a secret contains this marker, so production can refuse
 * all of them with one rule instead of a list that falls out of date.
 */
export const DEV_SECRET_PREFIX = 'dev-only-';

/** A secret with a development default that production refuses (see {@link parseEnv}). */
export function secret(devDefault: string, minLength = 12) {
  if (!devDefault.startsWith(DEV_SECRET_PREFIX)) {
    throw new Error(`development secrets must start with ${DEV_SECRET_PREFIX}`);
  }
  return z.string().min(minLength).default(devDefault);
}

/** The NODE_ENV every service reads; development unless set. */
/**
 * The development bot token: the auth service checks mini-app launches against it, and the web
 * server signs development launches outside Telegram with it. A Telegram token has a fixed shape
 * (`<bot id>:<35 characters>`), so it cannot start with dev-only-; it contains it, which is what
 * production refuses.
 */
export const DEV_TELEGRAM_BOT_TOKEN = '123456:dev-only-telegram-bot-token-0000000000';

/** A Telegram bot token's shape. */
export const telegramBotToken = () =>
  z.string().regex(/^\d{1,20}:[A-Za-z0-9_-]{30,100}$/, 'must look like 123456:ABC...');

export const NodeEnv = z.enum(['development', 'test', 'production']).default('development');

/** A TCP port number from the environment. */
export const port = (fallback: number) =>
  z.coerce.number().int().min(1).max(65535).default(fallback);

/** Thrown when the environment is invalid; `issues` maps each variable to its problems. */
export class InvalidEnvironmentError extends Error {
  constructor(readonly issues: Record<string, string[]>) {
    super(
      `Invalid environment variables:\n${Object.entries(issues)
        .map(([name, problems]) => `  ${name}: ${problems.join('; ')}`)
        .join('\n')}`,
    );
    this.name = 'InvalidEnvironmentError';
  }
}

type EnvSource = Record<string, string | undefined>;

/**
 * Parses a service's environment once, at start-up. Empty strings count as unset, so a
 * blank line in an .env file falls back to the default. In production any value that is
 * still a development secret is refused.
 */
export function parseEnv<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  source: EnvSource,
): z.infer<z.ZodObject<Shape>> {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const { fieldErrors, formErrors } = z.flattenError(parsed.error);
    const issues: Record<string, string[]> = { ...(fieldErrors as Record<string, string[]>) };
    if (formErrors.length > 0) issues['(environment)'] = formErrors;
    throw new InvalidEnvironmentError(issues);
  }
  if (cleaned['NODE_ENV'] === 'production') {
    const devSecrets = Object.entries(parsed.data as Record<string, unknown>)
      .filter(([, value]) => typeof value === 'string' && value.includes(DEV_SECRET_PREFIX))
      .map(([name]): [string, string[]] => [
        name,
        ['is a development default; set a real secret in production'],
      ]);
    if (devSecrets.length > 0) throw new InvalidEnvironmentError(Object.fromEntries(devSecrets));
  }
  return parsed.data;
}

/**
 * {@link parseEnv} for a service's entry point: prints what is wrong and exits, so a bad
 * value stops the service at boot, not in the middle of a request.
 */
export function loadEnv<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  source: EnvSource = process.env,
): z.infer<z.ZodObject<Shape>> {
  try {
    return parseEnv(schema, source);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

export { commaList } from './comma-list.ts';
export { trustedProxies } from './trusted-proxies.ts';
export * from './stack-addresses.ts';
