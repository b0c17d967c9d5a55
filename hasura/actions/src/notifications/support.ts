import { staffT } from '@app/shared/i18n/server';
import type { MailMessage } from '@app/shared/mail';

import type { SupportRequestRow } from './payload.ts';
import { multiLine, oneLine, render } from './render.ts';

const SIMPLE_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+$/;

const t = staffT('supportMail');

/**
 * The staff inbox's copy of a support request (English: it is for staff). Replies go to the
 * person who wrote; the console link opens the support requests page.
 */
export function supportRequestMail(
  request: SupportRequestRow,
  inbox: string,
  baseUrl: string,
): MailMessage {
  const name = oneLine(request.name, 100);
  const email = oneLine(request.email, 254);
  const subject = oneLine(request.subject, 120);
  const none = t('none');
  const from = name || email;
  const message = render(
    {
      subject: subject ? t('subjectWithTopic', { from, topic: subject }) : t('subject', { from }),
      paragraphs: [t('intro')],
      facts: [
        [t('name'), name || none],
        [t('email'), email],
        [t('orderId'), oneLine(request.order_id, 64) || none],
        [t('topic'), subject || none],
        [t('received'), oneLine(request.created_at, 64) || none],
        [t('request'), request.id],
      ],
      block: multiLine(request.message),
      action: { label: t('action'), href: `${baseUrl}/admin/support-requests` },
    },
    inbox,
  );
  // Reply-To only for a plain address: nothing nodemailer could read as a list or a name.
  return SIMPLE_ADDRESS.test(email) ? { ...message, replyTo: email } : message;
}
