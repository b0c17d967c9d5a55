import type { MailMessage } from '@app/shared/mail';

import type { SupportRequestRow } from './payload.ts';
import { multiLine, oneLine, render } from './render.ts';

const SIMPLE_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+$/;

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
  const none = '—';
  const message = render(
    {
      subject: `Support request from ${name || email}${subject ? `: ${subject}` : ''}`,
      paragraphs: ['A new support request arrived.'],
      facts: [
        ['Name', name || none],
        ['E-mail', email],
        ['Order ID', oneLine(request.order_id, 64) || none],
        ['Subject', subject || none],
        ['Received', oneLine(request.created_at, 64) || none],
        ['Request', request.id],
      ],
      block: multiLine(request.message),
      action: { label: 'Support requests', href: `${baseUrl}/admin/support-requests` },
    },
    inbox,
  );
  // Reply-To only for a plain address: nothing nodemailer could read as a list or a name.
  return SIMPLE_ADDRESS.test(email) ? { ...message, replyTo: email } : message;
}
