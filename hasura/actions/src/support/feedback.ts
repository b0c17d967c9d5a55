import { localeOrDefault, type Locale } from '@app/shared/i18n';
import type { Logger } from '@app/shared/log';
import type { Mailer, MailMessage } from '@app/shared/mail';

import { inSession } from '../db/session.ts';
import { EMAIL, invalidInput, requiredText, uuidArgument } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext } from '../http/payload.ts';
import { requireStaff } from '../http/roles.ts';
import { multiLine, oneLine, render } from '../notifications/render.ts';

/*
 * `sendSupportFeedback`: the console's feedback form (spec section 2: e-mail, subject,
 * message). Staff write to a customer; the mail goes out through the shared mailer while the
 * record of it (public.support_feedback) is being written, so a mail the SMTP server refused
 * leaves no record and a record always means the server took the mail. With a support request
 * it answers that request and, unless told otherwise, marks it handled.
 */

/** Feedback mails one staff member may send per minute. */
export const FEEDBACK_PER_MINUTE = 10;
/** The same subject and message to the same address within this window is a double send. */
export const FEEDBACK_DUPLICATE_MINUTES = 10;

export interface FeedbackOptions extends ActionContext {
  mailer: Mailer | undefined;
  /** The portal's origin, for the contact link. */
  baseUrl: string;
  /** The staff inbox; replies to the mail go there when set. */
  inbox: string | undefined;
  logger: Pick<Logger, 'warn'>;
}

/** `SupportFeedbackOutput`. */
export interface SentFeedback {
  id: string;
  sentAt: string;
  supportRequestId: string | null;
  handled: boolean | null;
}

const WORDS: Record<
  Locale,
  { from: string; reply: string; noReply: string; contact: string; prefix: string }
> = {
  en: {
    from: 'This message is from our support team.',
    reply: 'To answer, reply to this e-mail or write to us through the contact page.',
    noReply: 'To write to us, use the contact page.',
    contact: 'Contact support',
    prefix: '',
  },
  ru: {
    from: 'Это сообщение от нашей службы поддержки.',
    reply: 'Чтобы ответить, ответьте на это письмо или напишите нам через страницу контактов.',
    noReply: 'Чтобы написать нам, воспользуйтесь страницей контактов.',
    contact: 'Связаться с поддержкой',
    prefix: '/ru',
  },
  ua: {
    from: 'Це повідомлення від нашої служби підтримки.',
    reply: 'Щоб відповісти, дайте відповідь на цей лист або напишіть нам через сторінку контактів.',
    noReply: 'Щоб написати нам, скористайтеся сторінкою контактів.',
    contact: 'Звʼязатися з підтримкою',
    prefix: '/ua',
  },
};

/** The mail: the staff member's text as they wrote it, then a line saying how to answer. */
export function feedbackMail(
  feedback: { email: string; subject: string; message: string },
  locale: Locale,
  baseUrl: string,
  inbox: string | undefined,
): MailMessage {
  const words = WORDS[locale];
  const message = render(
    {
      subject: oneLine(feedback.subject, 200),
      paragraphs: [],
      block: multiLine(feedback.message),
      after: [`${words.from} ${inbox ? words.reply : words.noReply}`],
      action: { label: words.contact, href: `${baseUrl}${words.prefix}/contact` },
    },
    feedback.email,
  );
  return inbox ? { ...message, replyTo: inbox } : message;
}

export async function sendSupportFeedback(options: FeedbackOptions): Promise<SentFeedback> {
  const { caller, input } = options;
  requireStaff(caller);
  const email = requiredText(input, 'email', 254);
  if (!EMAIL.test(email)) throw invalidInput('email: Invalid email', 'email');
  const subject = requiredText(input, 'subject', 200);
  const message = requiredText(input, 'message', 5000);
  const supportRequestId = uuidArgument(input, 'supportRequestId') ?? null;
  const markHandled = input['markHandled'];
  if (markHandled !== undefined && markHandled !== null && typeof markHandled !== 'boolean')
    throw invalidInput('markHandled: expected true or false.', 'markHandled');
  if (supportRequestId === null && markHandled === true)
    throw invalidInput('markHandled needs a supportRequestId.', 'markHandled');
  const { mailer } = options;
  if (!mailer) {
    // 400, not the catalog's 503: the staff console shows it as a refusal, not an outage.
    throw new ActionFailure(
      'mail-unavailable',
      'No mail server is configured; nothing was sent.',
      400,
    );
  }

  return inSession(options.pool, options.sessionVariables, async (client) => {
    // One sender's sends take turns, so the rate limit and the double-send check see each other.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('support_feedback:' || $1))`, [
      caller.userId,
    ]);
    const recent = await client.query<{ sent: number; duplicate: string | null }>(
      `SELECT (SELECT count(*) FROM public.support_feedback
                WHERE sent_by = $1 AND sent_at > now() - interval '1 minute')::int AS sent,
              (SELECT to_json(max(sent_at)) #>> '{}' FROM public.support_feedback
                WHERE lower(email) = lower($2) AND subject = $3 AND message = $4
                  AND sent_at > now() - make_interval(mins => $5)) AS duplicate`,
      [caller.userId, email, subject, message, FEEDBACK_DUPLICATE_MINUTES],
    );
    const { sent, duplicate } = recent.rows[0]!;
    if (duplicate !== null) {
      throw new ActionFailure(
        'duplicate',
        `The same message was already sent to ${email} (at ${duplicate}); it is not sent twice.`,
        409,
        { sentAt: duplicate },
      );
    }
    if (sent >= FEEDBACK_PER_MINUTE) {
      throw new ActionFailure(
        'too-frequent',
        `You have sent ${FEEDBACK_PER_MINUTE} messages in the last minute. Please try again in a minute.`,
        429,
      );
    }

    let handled: boolean | null = null;
    if (supportRequestId !== null) {
      const request = await client.query<{ handled: boolean }>(
        'SELECT handled FROM public.support_requests WHERE id = $1 FOR UPDATE',
        [supportRequestId],
      );
      if (!request.rows[0]) {
        throw new ActionFailure('not-found', 'No such support request.', 404, {
          field: 'supportRequestId',
        });
      }
      handled = request.rows[0].handled;
      if (markHandled !== false && !handled) {
        // The table's trigger stamps handled_at and handled_by (the session's user).
        await client.query('UPDATE public.support_requests SET handled = true WHERE id = $1', [
          supportRequestId,
        ]);
        handled = true;
      }
    }

    const account = await client.query<{ locale: string }>(
      'SELECT locale FROM public.portal_users WHERE lower(email) = lower($1)',
      [email],
    );
    const inserted = await client.query<{ id: string; sentAt: string }>(
      `INSERT INTO public.support_feedback (support_request_id, sent_by, email, subject, message)
       VALUES ($1, $2, $3, $4, $5)
       RETURNING id, to_json(sent_at) #>> '{}' AS "sentAt"`,
      [supportRequestId, caller.userId, email, subject, message],
    );
    const row = inserted.rows[0]!;
    const mail = feedbackMail(
      { email, subject, message },
      localeOrDefault(account.rows[0]?.locale),
      options.baseUrl,
      options.inbox,
    );
    try {
      await mailer.send({
        ...mail,
        messageId: `<${row.id}.support_feedback@${new URL(options.baseUrl).hostname || 'localhost'}>`,
      });
    } catch (error) {
      // Nothing is recorded (the transaction rolls back): the staff member may send again.
      options.logger.warn({ err: error, feedback: row.id }, 'support feedback not sent');
      throw new ActionFailure(
        'mail-not-sent',
        'The mail server did not take the message; nothing was sent. Please try again.',
      );
    }
    return { id: row.id, sentAt: row.sentAt, supportRequestId, handled };
  });
}
