import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type pg from 'pg';

import type { Logger } from '@app/shared/log';
import type { Mailer, MailMessage } from '@app/shared/mail';

import { SECRET_HEADER, sameSecret } from '../http/shared-secret.ts';
import {
  DEFAULT_PUBLIC_WEB_URL,
  DEV_ORDER_LINK_SECRET,
  OFFLINE_RATES_PROVIDER,
  type ActionsEnv,
  type RatesProviderName,
} from '../env.ts';
import { ActionFailure } from '../http/errors.ts';
import { rateProviders, runRatesRefresh } from '../rates/cron.ts';

import { applyChainPayment, type ApplyResult } from '../orders/chain-payment.ts';

import { orderCreatedMail, orderStatusMail } from './orders.ts';
import {
  ChainPaymentRow,
  invalidEvent,
  OrderRow,
  parseEventPayload,
  parseRow,
  SupportRequestRow,
  type EventPayload,
} from './payload.ts';
import { supportRequestMail } from './support.ts';

/*
 * The engine's event triggers and cron triggers that need code (hasura/metadata):
 *
 * - `POST /events/<trigger>`: the e-mail triggers on public.transactions (a new order, a status
 *   change) and public.support_requests (a new request). 200 when the mail was handed to SMTP
 *   (or nothing is to be sent), 400 for a malformed event, 503 when SMTP failed or the database
 *   is unreachable (then `service-unavailable` with Retry-After, as for actions), so that the
 *   engine retries the event per its retry_conf. Delivery is at least once: an event delivered
 *   again (a lost response, an engine restart mid-delivery) sends its mail again, with the same
 *   Message-ID. The bot triggers on the same tables go to the bot service, not here.
 * - `POST /events/chain_payment_confirmed`: a chain watcher's payment reached its
 *   confirmations (public.chain_payments); the order moves on confirmPayment's rule
 *   (orders/chain-payment.ts). A repeat changes nothing. 503 when the database is unreachable.
 * - `POST /cron/refresh-rates`: the refresh_rates cron trigger; refreshes `public.rates`.
 *
 * Only the engine may call: every request must carry ACTIONS_SECRET in `x-actions-secret`.
 */

export interface EventsEnv extends Pick<ActionsEnv, 'ACTIONS_SECRET'> {
  /** Default http://localhost:3000. */
  PUBLIC_WEB_URL?: string | undefined;
  /** Unset: support requests are not e-mailed (logged and answered 200). */
  SUPPORT_INBOX_EMAIL?: string | undefined;
  /** Default: the offline snapshot. */
  RATES_PROVIDER?: readonly RatesProviderName[] | undefined;
  /**
   * Signs the secret order link of the order-created e-mail (orders/link-token.ts); default
   * the development secret (the app passes the parsed environment, which always has it).
   */
  ORDER_LINK_SECRET?: string | undefined;
}

export interface EventsRouterOptions {
  pool: pg.Pool;
  /** Without a mailer, e-mail events are answered 503 (the engine keeps retrying them). */
  mailer: Mailer | undefined;
  /** Read on every request, so a test may change it between events. */
  env: EventsEnv;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** Event payloads: one row (a support message is at most 5,000 characters). */
const BODY_LIMIT = '256kb';

/** The SMTP server refused or could not be reached: the engine should retry. */
class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
}

type Outcome =
  | { kind: 'mail'; template: string; message: MailMessage }
  | { kind: 'skip'; reason: string }
  | { kind: 'applied'; result: ApplyResult };

type EventHandler = (payload: EventPayload) => Outcome | Promise<Outcome>;

function expectTable(
  payload: EventPayload,
  table: string,
  ops: Array<EventPayload['event']['op']>,
) {
  if (payload.table.schema !== 'public' || payload.table.name !== table)
    throw invalidEvent(`The trigger expects events of public.${table}.`);
  if (!ops.includes(payload.event.op))
    throw invalidEvent(`The trigger expects ${ops.join(' or ')} events.`);
}

/** Hasura's event id as a Message-ID, so a repeat delivery is recognisably the same mail. */
const messageId = (payload: EventPayload, trigger: string, baseUrl: string) =>
  `<${payload.id}.${trigger}@${new URL(baseUrl).hostname || 'localhost'}>`;

export function createEventsRouter(options: EventsRouterOptions): Router {
  const { pool, mailer, logger } = options;
  const env = () => ({
    secret: options.env.ACTIONS_SECRET,
    baseUrl: options.env.PUBLIC_WEB_URL ?? DEFAULT_PUBLIC_WEB_URL,
    inbox: options.env.SUPPORT_INBOX_EMAIL,
    providers: options.env.RATES_PROVIDER ?? [OFFLINE_RATES_PROVIDER],
    linkSecret: options.env.ORDER_LINK_SECRET ?? DEV_ORDER_LINK_SECRET,
  });

  const handlers: Record<string, EventHandler> = {
    async order_created_email(payload) {
      expectTable(payload, 'transactions', ['INSERT', 'MANUAL']);
      const order = parseRow(OrderRow, payload.event.data.new, 'data.new');
      const { baseUrl, linkSecret } = env();
      return orderCreatedMail(pool, order, baseUrl, linkSecret);
    },
    async order_status_email(payload) {
      expectTable(payload, 'transactions', ['UPDATE', 'MANUAL']);
      const order = parseRow(OrderRow, payload.event.data.new, 'data.new');
      const old = payload.event.data.old;
      const before = old ? parseRow(OrderRow, old, 'data.old') : null;
      return orderStatusMail(pool, before, order, env().baseUrl);
    },
    async chain_payment_confirmed(payload) {
      expectTable(payload, 'chain_payments', ['INSERT', 'UPDATE', 'MANUAL']);
      const payment = parseRow(ChainPaymentRow, payload.event.data.new, 'data.new');
      if (payment.state !== 'confirmed')
        return { kind: 'skip', reason: `the payment is ${payment.state}` };
      return { kind: 'applied', result: await applyChainPayment(pool, payment.id) };
    },
    support_request_email(payload) {
      expectTable(payload, 'support_requests', ['INSERT', 'MANUAL']);
      const request = parseRow(SupportRequestRow, payload.event.data.new, 'data.new');
      const { inbox, baseUrl } = env();
      if (inbox === undefined) {
        logger.info(
          { supportRequest: request.id },
          'support request not e-mailed: SUPPORT_INBOX_EMAIL is not set',
        );
        return { kind: 'skip', reason: 'SUPPORT_INBOX_EMAIL is not set' };
      }
      return {
        kind: 'mail',
        template: 'support-request',
        message: supportRequestMail(request, inbox, baseUrl),
      };
    },
  };

  const router = express.Router();

  const engineOnly = (req: Request, _res: Response, next: NextFunction) => {
    if (!sameSecret(req.get(SECRET_HEADER), env().secret))
      throw new ActionFailure('unauthorized', 'This endpoint is for the GraphQL engine.', 401);
    next();
  };

  router.post(
    '/events/:trigger',
    engineOnly,
    // Raw text: parseEventPayload keeps numbers exact.
    express.text({ type: 'application/json', limit: BODY_LIMIT }),
    async (req: Request<{ trigger: string }>, res: Response) => {
      const { trigger } = req.params;
      const handler = Object.hasOwn(handlers, trigger) ? handlers[trigger] : undefined;
      if (!handler)
        throw new ActionFailure('not-found', `Unknown event trigger '${trigger}'.`, 404);
      if (typeof req.body !== 'string')
        throw new ActionFailure('invalid-payload', 'Expected a JSON body.', 415);
      const payload = parseEventPayload(req.body);
      if (payload.trigger.name !== trigger)
        throw invalidEvent('The event trigger does not match the URL.');

      const outcome = await handler(payload);
      const context = { trigger, event: payload.id };
      if (outcome.kind === 'skip') {
        res.json({ status: 'skipped', reason: outcome.reason });
        return;
      }
      if (outcome.kind === 'applied') {
        logger.info({ ...context, ...outcome.result }, 'chain payment applied');
        res.json({ status: 'applied', ...outcome.result });
        return;
      }
      if (!mailer) {
        throw new ActionFailure('mail-unavailable', 'No mailer is configured.', 503);
      }
      try {
        await mailer.send({
          ...outcome.message,
          messageId: messageId(payload, trigger, env().baseUrl),
        });
      } catch (error) {
        logger.warn({ ...context, err: error }, 'event e-mail not sent; the engine will retry');
        throw new MailDeliveryError(error instanceof Error ? error.message : String(error));
      }
      logger.info({ ...context, template: outcome.template }, 'event e-mail sent');
      res.json({ status: 'sent', template: outcome.template });
    },
  );

  router.post('/cron/refresh-rates', engineOnly, async (_req: Request, res: Response) => {
    const names = env().providers;
    const { status, summary } = await runRatesRefresh(pool, rateProviders(names, pool), {
      now: new Date(),
      logger,
    });
    res.status(status).json(summary);
  });

  // A mail server that refused is this router's own answer; every other error (a malformed
  // event, a lost database, anything unexpected) goes on to the actions app's error handler,
  // which answers it as it answers actions.
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (error instanceof MailDeliveryError) {
      res.status(503).json({ message: 'The mail server did not accept the message.' });
      return;
    }
    next(error);
  });
  return router;
}
