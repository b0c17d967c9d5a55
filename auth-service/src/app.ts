import express, { type Express, type NextFunction, type Request, type Response } from 'express';

import type { Logger } from '@app/shared/log';
import { createOutboxMailer, createSmtpMailer, type Mailer } from '@app/shared/mail';
import {
  createServiceMetrics,
  metricsRoute,
  METRICS_PATH,
  observePool,
} from '@app/shared/observability';

import type { AppContext } from './context.ts';
import { createJwtSigner } from './crypto/jwt.ts';
import { createDummyVerifier } from './crypto/password.ts';
import { telegramSecretKey } from './crypto/telegram.ts';
import type { Db } from './db/index.ts';
import type { AuthEnv } from './env.ts';
import { AuthError } from './errors.ts';
import { cors } from './http/cors.ts';
import { errorHandler } from './http/errors.ts';
import { requestContext } from './http/request.ts';
import { createLimiter, DEFAULT_LIMITS, type LimitName, type LimitRule } from './rate-limit.ts';
import { addEmailRoutes } from './routes/add-email/index.ts';
import { changePasswordRoutes } from './routes/change-password/index.ts';
import { loginWith2faRoutes } from './routes/login-with-2fa/index.ts';
import { loginRoutes } from './routes/login/index.ts';
import { logoutRoutes } from './routes/logout/index.ts';
import { quickAuthRoutes } from './routes/quick-auth/index.ts';
import { refreshTokensRoutes } from './routes/refresh-tokens/index.ts';
import { registerRoutes } from './routes/register/index.ts';
import { resetPasswordRoutes } from './routes/reset-password/index.ts';
import { telegramAuthRoutes } from './routes/telegram-auth/index.ts';
import { telegramLinkRoutes } from './routes/telegram-link/index.ts';
import { twoFactorRoutes } from './routes/two-factor/index.ts';

export interface AuthAppOptions {
  env: AuthEnv;
  db: Db;
  logger: Logger;
  /** Default: SMTP at SMTP_URL, else the outbox folder. */
  mailer?: Mailer;
  /** Clock in milliseconds (tests). */
  now?: () => number;
  /** Replaces some rate-limit rules (tests). */
  limits?: Partial<Record<LimitName, LimitRule>>;
}

export interface AuthApp {
  /** The Express application; the caller decides where it listens. */
  app: Express;
  /** Waits for work still running after its response (mails). */
  drain(): Promise<void>;
  /** Drains, then closes the mail transport. The database pool belongs to the caller. */
  close(): Promise<void>;
}

/** Largest JSON body accepted; every body here is a few short fields. */
const BODY_LIMIT = '16kb';

export function createApp(options: AuthAppOptions): AuthApp {
  const { env, db, logger } = options;
  const now = options.now ?? Date.now;
  const mailer =
    options.mailer ??
    (env.SMTP_URL
      ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM)
      : createOutboxMailer(env.AUTH_OUTBOX_DIR, env.MAIL_FROM, logger));
  const pending = new Set<Promise<unknown>>();
  const ctx: AppContext = {
    env,
    db,
    logger,
    mailer,
    now,
    jwt: createJwtSigner(env.HASURA_GRAPHQL_JWT_SECRET, env.AUTH_ACCESS_TOKEN_TTL, now),
    limit: createLimiter(db, { ...DEFAULT_LIMITS, ...options.limits }, env.AUTH_RATE_LIMIT_FACTOR),
    telegramSecret: telegramSecretKey(env.TELEGRAM_BOT_TOKEN),
    dummyVerify: createDummyVerifier(),
    background(name, work) {
      const task = work()
        .catch((error: unknown) =>
          logger.error({ err: error, task: name }, 'background task failed'),
        )
        .finally(() => pending.delete(task));
      pending.add(task);
    },
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // By address, never by hop count (env.ts): nothing trusted leaves req.ip the socket's peer.
  app.set('trust proxy', env.AUTH_TRUST_PROXY.length > 0 ? env.AUTH_TRUST_PROXY : false);
  const metrics = createServiceMetrics('auth');
  observePool(metrics.registry, db);
  app.use(requestContext(logger, metrics));
  app.use(cors(new Set([...env.AUTH_CORS_ORIGINS, env.AUTH_WEB_ORIGIN, env.AUTH_MINIAPP_ORIGIN])));

  app.get('/healthz', async (_req, res) => {
    await db.query('SELECT 1');
    res.json({ status: 'ok' });
  });

  // Prometheus, on this service's own port (the public proxy never routes it).
  app.get(METRICS_PATH, metricsRoute(metrics, env.METRICS_TOKEN));

  app.use(requireJsonBody);
  app.use(
    express.json({ limit: BODY_LIMIT, strict: true, inflate: false, type: 'application/json' }),
  );
  for (const routes of [
    loginRoutes,
    loginWith2faRoutes,
    quickAuthRoutes,
    registerRoutes,
    refreshTokensRoutes,
    resetPasswordRoutes,
    changePasswordRoutes,
    twoFactorRoutes,
    telegramAuthRoutes,
    telegramLinkRoutes,
    addEmailRoutes,
    logoutRoutes,
  ]) {
    app.use(routes(ctx));
  }
  app.use(() => {
    throw new AuthError('not-found');
  });
  app.use(errorHandler());

  const drain = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
  return {
    app,
    drain,
    async close() {
      await drain();
      mailer.close();
    },
  };
}

/** Bodies are JSON (and raw initData as text on /telegram-auth); anything else is 415. */
function requireJsonBody(req: Request, _res: Response, next: NextFunction) {
  if (req.method !== 'POST') return next();
  const types =
    req.path === '/telegram-auth' ? ['application/json', 'text/plain'] : ['application/json'];
  if (req.is(types) === false) throw new AuthError('unsupported-media-type');
  next();
}
