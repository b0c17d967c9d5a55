import { requiredText } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext } from '../http/payload.ts';

import { orderIdOfLinkToken } from './link-token.ts';

/** The `LinkedOrder` output: what the secret link shows. Never payment details. */
export interface LinkedOrder {
  id: string;
  number: string;
  status: string;
  sendCurrency: string;
  receiveCurrency: string;
  sendAmount: string;
  receiveAmount: string;
  rate: string;
  createdAt: string;
  requisitesDueAt: string;
  requisitesLateAt: string | null;
  payBy: string | null;
  queuePosition: number | null;
  actionReason: string | null;
  holdCategory: string | null;
  receivedAmount: string | null;
  settledReceiveAmount: string | null;
  settledRate: string | null;
  payoutTxId: string | null;
  refundTxId: string | null;
  completedAt: string | null;
  canceledBy: string | null;
}

const notFound = () => new ActionFailure('not-found', 'No order has this link.', 404);

/** `orderByLink`: anyone holding an order's secret link sees it, read-only. */
export async function orderByLink(
  options: ActionContext & { linkSecret: string },
): Promise<LinkedOrder> {
  const token = requiredText(options.input, 'token', 128);
  const id = orderIdOfLinkToken(options.linkSecret, token);
  if (id === null) throw notFound();
  const { rows } = await options.pool.query<LinkedOrder>(
    `SELECT t.id, t.number::text AS number, t.status,
            t.send_currency AS "sendCurrency", t.receive_currency AS "receiveCurrency",
            t.send_amount::text AS "sendAmount", t.receive_amount::text AS "receiveAmount",
            t.rate::text AS rate,
            to_json(t.created_at) #>> '{}' AS "createdAt",
            to_json(t.requisites_due_at) #>> '{}' AS "requisitesDueAt",
            to_json(t.requisites_late_at) #>> '{}' AS "requisitesLateAt",
            to_json(t.pay_by) #>> '{}' AS "payBy",
            public.transaction_queue_position(t) AS "queuePosition",
            t.action_reason AS "actionReason", t.hold_category AS "holdCategory",
            t.received_amount::text AS "receivedAmount",
            t.settled_receive_amount::text AS "settledReceiveAmount",
            t.settled_rate::text AS "settledRate",
            t.payout_tx_id AS "payoutTxId", t.refund_tx_id AS "refundTxId",
            to_json(t.completed_at) #>> '{}' AS "completedAt", t.canceled_by AS "canceledBy"
       FROM public.transactions t WHERE t.id = $1`,
    [id],
  );
  const order = rows[0];
  if (!order) throw notFound();
  return order;
}
