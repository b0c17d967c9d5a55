import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type pg from 'pg';

import { isConnectionError } from '@app/shared/db/service-pool';
import type { Logger } from '@app/shared/log';
import type { Mailer } from '@app/shared/mail';
import {
  createServiceMetrics,
  metricsRoute,
  METRICS_PATH,
  observePool,
  requestObservability,
} from '@app/shared/observability';

import { processBonusWithdrawal, requestBonusWithdrawal } from './affiliate/withdrawals.ts';
import { DEFAULT_PUBLIC_WEB_URL, DEV_ORDER_LINK_SECRET, type ActionsEnv } from './env.ts';
import { rateFeed } from './feeds/rate-feed.ts';
import { checkCurrentSession } from './http/current-session.ts';
import { ActionFailure } from './http/errors.ts';
import { callerOf, parsePayload, type ActionContext, type ActionPayload } from './http/payload.ts';
import { SECRET_HEADER, sameSecret } from './http/shared-secret.ts';
import { createEventsRouter, type EventsEnv } from './notifications/router.ts';
import { orderByLink } from './orders/by-link.ts';
import { observeOperatorQueue } from './operator-metrics.ts';
import { createDeadlinesRouter } from './orders/deadlines.ts';
import { checkRequisites } from './orders/check-requisites.ts';
import { createExchange } from './orders/create.ts';
import {
  cancelExchange,
  cancelExchangeByStaff,
  completeExchange,
  completeRefund,
  confirmPayment,
  holdOrder,
  releaseHold,
  supplyRequisites,
} from './orders/lifecycle.ts';
import { pairRateOutput, serverPairRate } from './orders/pair-rate.ts';
import { resolvePaymentIssue } from './orders/payment-issue.ts';
import { quoteOutput, serverQuote } from './orders/quote.ts';
import { orderReceiptLink, orderReceiptPdfByToken } from './receipts/download.ts';
import { orderReceiptPdf } from './receipts/receipt-pdf.ts';
import { grantManagerRole, revokeManagerRole } from './staff/managers.ts';
import { sendSupportFeedback } from './support/feedback.ts';
import { submitSupportRequest } from './support/submit.ts';

export interface ActionsAppOptions {
  env: Pick<ActionsEnv, 'ACTIONS_SECRET' | 'QUOTE_MAX_RATE_AGE_SECONDS'> &
    Partial<Pick<ActionsEnv, 'ORDER_LINK_SECRET'>> &
    EventsEnv;
  pool: pg.Pool;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The clock (tests); default the system's. */
  now?: () => Date;
  /**
   * Sends the event-trigger e-mails and the staff's feedback mails (main.ts: SMTP_URL or the
   * outbox); none: events wait (503) and feedback is refused.
   */
  mailer?: Mailer;
  /**
   * Request ids, an access-log line per request and GET /metrics (main.ts; `token`:
   * METRICS_TOKEN). Without it (unit tests) the service answers without them.
   */
  observability?: { logger: Logger; token: string | undefined };
}

/**
 * An action handler: the engine's payload in (and the request, for the client headers an
 * action with `forward_client_headers` receives), the action's output value out.
 */
type Handler = (payload: ActionPayload, request: Request) => Promise<unknown>;

/** Action payloads are a few fields; the engine's own limit is far above. */
const BODY_LIMIT = '32kb';

/** The answer while the database is unreachable (HTTP 503). */
export { SECRET_HEADER } from './http/shared-secret.ts';

export const SERVICE_UNAVAILABLE = new ActionFailure(
  'service-unavailable',
  'The service is briefly unavailable. Please try again in a moment.',
  503,
);

/**
 * The actions service: `POST /actions/<name>` for each Hasura action (the handler URL in
 * hasura/metadata/actions.yaml is `{{ACTIONS_BASE_URL}}/actions/<name>`), and `GET /healthz`.
 * Only the engine may call: every action request must carry the shared secret.
 */
export function createActionsApp(options: ActionsAppOptions): Express {
  const { env, pool, logger } = options;
  const now = options.now ?? (() => new Date());

  const session = (payload: ActionPayload): ActionContext => ({
    pool,
    caller: callerOf(payload),
    sessionVariables: payload.session_variables,
    input: payload.input,
    now: now(),
  });
  // Read on every call, so a test may change it.
  const linkSecret = () => env.ORDER_LINK_SECRET ?? DEV_ORDER_LINK_SECRET;
  const maxRateAgeSeconds = () => env.QUOTE_MAX_RATE_AGE_SECONDS;

  const handlers: Record<string, Handler> = {
    async quote(payload) {
      const input = (payload.input['input'] ?? {}) as Record<string, unknown>;
      const { quote } = await serverQuote(pool, {
        from: input['from'],
        to: input['to'],
        side: input['side'],
        amount: input['amount'],
        userId: callerOf(payload).userId,
        now: now(),
        maxRateAgeSeconds: env.QUOTE_MAX_RATE_AGE_SECONDS,
      });
      return quoteOutput(quote);
    },
    async pairRate(payload) {
      const rate = await serverPairRate(pool, {
        from: payload.input['from'],
        to: payload.input['to'],
        userId: callerOf(payload).userId,
        now: now(),
        maxRateAgeSeconds: env.QUOTE_MAX_RATE_AGE_SECONDS,
      });
      return pairRateOutput(rate);
    },
    async createExchange(payload) {
      return createExchange({
        pool,
        caller: callerOf(payload),
        sessionVariables: payload.session_variables,
        input: (payload.input['input'] ?? {}) as Record<string, unknown>,
        now: now(),
        maxRateAgeSeconds: env.QUOTE_MAX_RATE_AGE_SECONDS,
      });
    },
    cancelExchange: (payload) => cancelExchange(session(payload)),
    supplyRequisites: (payload) =>
      supplyRequisites({ ...session(payload), maxRateAgeSeconds: maxRateAgeSeconds() }),
    confirmPayment: (payload) => confirmPayment(session(payload)),
    holdOrder: (payload) => holdOrder(session(payload)),
    releaseHold: (payload) => releaseHold(session(payload)),
    completeRefund: (payload) => completeRefund(session(payload)),
    resolvePaymentIssue: (payload) =>
      resolvePaymentIssue({ ...session(payload), maxRateAgeSeconds: maxRateAgeSeconds() }),
    checkRequisites: (payload) => checkRequisites(session(payload)),
    orderByLink: (payload) => orderByLink({ ...session(payload), linkSecret: linkSecret() }),
    orderReceiptPdf: (payload) =>
      orderReceiptPdf({ ...session(payload), linkSecret: linkSecret() }),
    orderReceiptLink: (payload) =>
      orderReceiptLink({
        ...session(payload),
        linkSecret: linkSecret(),
        baseUrl: env.PUBLIC_WEB_URL ?? DEFAULT_PUBLIC_WEB_URL,
      }),
    orderReceiptPdfByToken: (payload) =>
      orderReceiptPdfByToken({ ...session(payload), linkSecret: linkSecret() }),
    rateFeed: () => rateFeed({ pool, now: now(), maxRateAgeSeconds: maxRateAgeSeconds() }),
    completeExchange: (payload) => completeExchange(session(payload)),
    cancelExchangeByStaff: (payload) => cancelExchangeByStaff(session(payload)),
    requestBonusWithdrawal: (payload) => requestBonusWithdrawal(session(payload)),
    processBonusWithdrawal: (payload) => processBonusWithdrawal(session(payload)),
    submitSupportRequest: (payload, request) =>
      submitSupportRequest({ ...session(payload), headers: request.headers }),
    grantManagerRole: (payload) => grantManagerRole(session(payload)),
    revokeManagerRole: (payload) => revokeManagerRole(session(payload)),
    sendSupportFeedback: (payload) =>
      sendSupportFeedback({
        ...session(payload),
        mailer: options.mailer,
        // Read on every call, as the events router does, so a test may change them.
        baseUrl: env.PUBLIC_WEB_URL ?? DEFAULT_PUBLIC_WEB_URL,
        inbox: env.SUPPORT_INBOX_EMAIL,
        logger,
      }),
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.observability) {
    const metrics = createServiceMetrics('actions');
    observePool(metrics.registry, pool);
    observeOperatorQueue(metrics.registry, pool);
    app.use(requestObservability({ logger: options.observability.logger, metrics }));
    // Prometheus, on this service's own port (the public proxy never routes it).
    app.get(METRICS_PATH, metricsRoute(metrics, options.observability.token));
  }

  app.get('/healthz', async (_req, res) => {
    await pool.query('SELECT 1');
    res.json({ status: 'ok' });
  });

  app.post(
    '/actions/:name',
    (req: Request, _res: Response, next: NextFunction) => {
      if (!sameSecret(req.get(SECRET_HEADER), env.ACTIONS_SECRET))
        throw new ActionFailure('unauthorized', 'This endpoint is for the GraphQL engine.', 401);
      next();
    },
    // Raw text: parsePayload keeps numbers exact.
    express.text({ type: 'application/json', limit: BODY_LIMIT }),
    async (req: Request<{ name: string }>, res: Response) => {
      const { name } = req.params;
      const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
      if (!handler) throw new ActionFailure('not-found', `Unknown action '${name}'.`, 404);
      if (typeof req.body !== 'string')
        throw new ActionFailure('invalid-payload', 'Expected a JSON body.', 415);
      const payload = parsePayload(req.body);
      if (payload.action.name !== name)
        throw new ActionFailure('invalid-payload', 'The action does not match the URL.');
      await checkCurrentSession(pool, payload);
      res.json(await handler(payload, req));
    },
  );

  app.use(createEventsRouter({ pool, mailer: options.mailer, env, logger }));
  app.use(createDeadlinesRouter({ pool, secret: () => env.ACTIONS_SECRET, now, logger }));

  app.use(() => {
    throw new ActionFailure('not-found', 'Not found.', 404);
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof ActionFailure) {
      res.status(error.status).json(error);
      return;
    }
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Body parser errors (too large, malformed).
      res.status(status).json(new ActionFailure('invalid-payload', 'Bad request.', status));
      return;
    }
    if (isConnectionError(error)) {
      // The database is restarting or unreachable: a clear "try again", which the engine
      // forwards with its code (HTTP 503); a createExchange retried with its idempotency key
      // makes one order however many tries it takes.
      logger.warn({ err: error, path: req.path }, 'database unavailable');
      res.set('retry-after', '1').status(503).json(SERVICE_UNAVAILABLE);
      return;
    }
    logger.error({ err: error, path: req.path }, 'request failed');
    res.status(500).json({ message: 'internal error', extensions: { code: 'unexpected' } });
  });
  return app;
}
