import { DEV_TELEGRAM_BOT_TOKEN } from '@app/shared/env';

import type { BotService } from '../../integration/bot/harness.ts';

import { dataOf, signedInitData, uniqueEmail, type Api, type Tokens } from './api.ts';
import { hostile, hostileWithHeader, IMAGE, RTL, SCRIPT } from './payloads.ts';

/*
 * The hostile data the escaping checks read back (escaping.reliability.ts): made through the
 * stack's real APIs, with the answers of the APIs that refuse it.
 */

/** Something that is not a line break, before the one the phrase must refuse. */
const HEADER_SAFE_PREFIX = 'abcd';

/** The engine's error for a refused GraphQL call, or 'accepted'. */
const outcome = (answer: { errors?: Array<{ message: string }> }): string =>
  answer.errors ? answer.errors.map((error) => error.message).join('; ') : 'accepted';

/** What the checks made, and the answers the APIs gave to what they refuse. */
export interface HostileData {
  customer: { email: string; tokens: Tokens; id: string };
  telegram: { id: number; firstName: string; username: string; tokens: Tokens; userId: string };
  phrase: string;
  order: { id: string; number: string };
  canceled: { id: string; number: string };
  telegramOrder: { id: string; number: string; email: string };
  support: { id: string; email: string };
  refusals: Record<string, string>;
}

export async function makeHostileData(api: Api, bot: BotService, made: HostileData): Promise<void> {
  made.refusals = {};
  // A customer with two orders: one waiting for payment (its page shows the anti-phishing
  // phrase), one canceled by staff with a reason.
  const email = uniqueEmail('hostile');
  const tokens = await api.register(email);
  const {
    portal_users: [me],
  } = dataOf<{ portal_users: Array<{ id: string }> }>(
    'me',
    await api.as(tokens, 'query { portal_users { id } }'),
  );
  made.customer = { email, tokens, id: me!.id };

  const first = await api.createOrder(tokens, {
    email,
    fullName: hostileWithHeader('fullName'),
    reason: hostileWithHeader('reason'),
  });
  made.order = dataOf('createExchange', first).createExchange;
  await api.staff.supply(made.order.id);
  const second = await api.createOrder(tokens, {
    email,
    fullName: 'Plain Name',
    reason: 'Savings',
  });
  made.canceled = dataOf('createExchange', second).createExchange;
  await api.staff.cancel(made.canceled.id, hostileWithHeader('cancel'));

  // The anti-phishing phrase: markup is accepted (it is only ever text); a line break is not.
  const setPhrase = (phrase: string) =>
    api.as(
      tokens,
      `mutation ($id: uuid!, $phrase: String!) {
         update_portal_users_by_pk(pk_columns: { id: $id }, _set: { anti_phishing_phrase: $phrase }) { id }
       }`,
      { id: me!.id, phrase },
    );
  made.refusals['anti-phishing phrase with a line break (API)'] = outcome(
    await setPhrase(`[phrase]${HEADER_SAFE_PREFIX}\r\nBcc: x@y.example`),
  );
  made.phrase = `[phrase]${IMAGE}${RTL}`;
  dataOf('anti-phishing phrase', await setPhrase(made.phrase));

  // The referral name: 3-20 letters and digits, refused by the API and by the database itself.
  made.refusals['referral name (API)'] = outcome(
    await api.as(
      tokens,
      `mutation ($id: uuid!, $name: String!) {
         update_portal_users_by_pk(pk_columns: { id: $id }, _set: { referral_name: $name }) { id }
       }`,
      { id: me!.id, name: SCRIPT },
    ),
  );
  made.refusals['referral name (SQL)'] = await api
    .sql('UPDATE public.portal_users SET referral_name = $1 WHERE id = $2', [SCRIPT, me!.id])
    .then(
      () => 'accepted',
      (error: Error) => error.message,
    );

  // A Telegram user whose first name and username are hostile, signed in by initData signed
  // with the development bot token (as Telegram signs it), with an order of their own.
  const telegram = {
    id: 930_000_000 + Math.floor(Math.random() * 1_000_000),
    firstName: hostile('firstName'),
    username: `[tg]${IMAGE}`,
  };
  const telegramTokens = await api.telegramAuth(
    signedInitData(
      { id: telegram.id, first_name: telegram.firstName, username: telegram.username },
      DEV_TELEGRAM_BOT_TOKEN,
    ),
  );
  const {
    portal_users: [telegramMe],
  } = dataOf<{ portal_users: Array<{ id: string }> }>(
    'telegram me',
    await api.as(telegramTokens, 'query { portal_users { id } }'),
  );
  made.telegram = { ...telegram, tokens: telegramTokens, userId: telegramMe!.id };
  // They pressed Start in the bot's chat too: Telegram lets a bot write first only then.
  bot.emulator.userStartedBot(telegram);
  // `*` and `_` are allowed in an address's local part; Telegram would read them as markdown.
  const telegramEmail = `tg*bold*_i_${Date.now()}@example.com`;
  const third = await api.createOrder(telegramTokens, {
    email: telegramEmail,
    fullName: hostile('telegramFullName'),
    reason: hostile('telegramReason'),
  });
  made.telegramOrder = { ...dataOf('createExchange', third).createExchange, email: telegramEmail };
  await api.staff.cancel(made.telegramOrder.id, hostile('telegramCancel'));

  // A visitor's support request, every field hostile; staff answer it with the feedback form.
  const supportEmail = `s"><svg/onload=window.__pwned=1>${Date.now()}@example.com`;
  const request = await api.supportRequest({
    name: hostileWithHeader('supportName'),
    email: supportEmail,
    subject: hostileWithHeader('supportSubject'),
    message: `${hostile('supportMessage')}\nsecond line ${SCRIPT}`,
  });
  made.support = {
    id: dataOf('submitSupportRequest', request).submitSupportRequest.id,
    email: supportEmail,
  };
  await api.asManager(
    `mutation ($email: String!, $subject: String!, $message: String!, $request: uuid) {
       sendSupportFeedback(email: $email, subject: $subject, message: $message,
                           supportRequestId: $request, markHandled: false) { id }
     }`,
    {
      email,
      subject: hostileWithHeader('feedbackSubject'),
      message: hostile('feedbackMessage'),
      request: made.support.id,
    },
  );
}
