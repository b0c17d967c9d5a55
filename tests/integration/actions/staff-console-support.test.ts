import { randomUUID } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';

import * as doc from './staff-console-documents.ts';
import { INBOX, useStaffConsole, WEB } from './staff-console-harness.ts';

/*
 * The staff console's support requests (issue 7): listing, marking handled and answering by
 * e-mail, delivered to a real SMTP server, through the real engine and actions service
 * (staff-console-harness.ts), with the documents the console sends.
 */

describe.each(databaseTargets)('staff console data service on $name', (target) => {
  const c = useStaffConsole(target);
  const { ids, manager, manager2, admin, ok, codeOf } = c;

  describe('support requests', () => {
    const requests: Record<string, string> = {};

    beforeAll(async () => {
      const insert = async (name: string, email: string, createdAt: string, user?: string) => {
        const { rows } = await c.db.pool.query<{ id: string }>(
          `INSERT INTO support_requests (user_id, name, email, order_id, message, created_at)
           VALUES ($1, $2, $3, '100042', 'Where is my payout?', $4) RETURNING id`,
          [user ?? null, name, email, createdAt],
        );
        requests[name] = rows[0]!.id;
      };
      await insert('Alice', 'alice@example.com', '2025-04-01T09:00:00Z', ids.alice);
      await insert('Erin', 'erin@example.com', '2025-04-02T09:00:00Z');
      await insert('Frank', 'frank@example.com', '2025-04-03T09:00:00Z');
    });

    const list = async (where: Record<string, unknown>) => {
      const data = await ok(doc.SUPPORT_REQUESTS, { where, limit: 20, offset: 0 }, manager);
      return {
        names: (data['support_requests'] as Array<{ name: string }>).map((row) => row.name),
        count: (data['support_requests_aggregate'] as { aggregate: { count: number } }).aggregate
          .count,
        rows: data['support_requests'] as Array<Record<string, unknown>>,
      };
    };

    it('lists requests newest first, by handled and by date, and marks one handled', async () => {
      expect((await list({})).names).toEqual(['Frank', 'Erin', 'Alice']);
      expect(
        (await list({ created_at: { _gte: '2025-04-02T00:00:00Z', _lt: '2025-04-03T00:00:00Z' } }))
          .names,
      ).toEqual(['Erin']);
      const handled = await ok(doc.MARK_HANDLED, { id: requests['Frank'], handled: true }, manager);
      expect(handled['update_support_requests_by_pk']).toMatchObject({
        handled: true,
        handled_by: ids.manager,
        handled_at: expect.any(String) as unknown,
      });
      expect((await list({ handled: { _eq: false } })).names).toEqual(['Erin', 'Alice']);
      expect(await list({ handled: { _eq: true } })).toMatchObject({ names: ['Frank'], count: 1 });
      const reopened = await ok(
        doc.MARK_HANDLED,
        { id: requests['Frank'], handled: false },
        manager,
      );
      expect(reopened['update_support_requests_by_pk']).toMatchObject({
        handled: false,
        handled_by: null,
        handled_at: null,
      });
    });

    it('e-mails the customer from the feedback form and marks the request handled', async () => {
      const message = 'Hello Alice,\n\nYour payout left today: tx abc.\n<b>Thanks</b>';
      const sent = await ok(
        doc.SEND_FEEDBACK,
        {
          email: 'alice@example.com',
          subject: 'Your order 100042',
          message,
          supportRequestId: requests['Alice'],
        },
        manager,
      );
      const result = sent['sendSupportFeedback'] as Record<string, unknown>;
      expect(result).toMatchObject({
        supportRequestId: requests['Alice'],
        handled: true,
        feedback: {
          email: 'alice@example.com',
          subject: 'Your order 100042',
          sent_by: ids.manager,
        },
        supportRequest: { id: requests['Alice'], handled: true, handled_by: ids.manager },
      });

      const mail = await c.mailbox.waitFor(
        'alice@example.com',
        (m) => m.subject === 'Your order 100042',
      );
      expect(mail.text).toContain('Your payout left today: tx abc.');
      // Alice's account is in Russian: the closing line and the link follow it.
      expect(mail.text).toContain('Это сообщение от нашей службы поддержки.');
      expect(mail.text).toContain(`${WEB}/ru/contact`);
      expect(mail.html).toContain('&lt;b&gt;Thanks&lt;/b&gt;');
      expect(mail.replyTo?.value[0]?.address).toBe(INBOX);
      expect(mail.messageId).toBe(`<${result['id'] as string}.support_feedback@exchange.test>`);

      const shown = await list({ id: { _eq: requests['Alice'] } });
      expect(shown.rows[0]).toMatchObject({
        handled: true,
        feedback: [
          {
            email: 'alice@example.com',
            subject: 'Your order 100042',
            message,
            sent_by_user: { email: 'manager@example.com' },
          },
        ],
      });
    });

    it('writes to any address, optionally leaving the request open', async () => {
      const sent = await ok(
        doc.SEND_FEEDBACK,
        {
          email: 'erin.other@example.com',
          subject: 'About your request',
          message: 'We need one more detail.',
          supportRequestId: requests['Erin'],
          markHandled: false,
        },
        admin,
      );
      expect(sent['sendSupportFeedback']).toMatchObject({ handled: false });
      const mail = await c.mailbox.waitFor('erin.other@example.com');
      expect(mail.text).toContain('This message is from our support team.');
      expect(mail.text).toContain(`${WEB}/contact`);
      const plain = await ok(
        doc.SEND_FEEDBACK,
        { email: 'gina@example.com', subject: 'Hello', message: 'A note without a request.' },
        manager,
      );
      expect(plain['sendSupportFeedback']).toMatchObject({ supportRequestId: null, handled: null });
      await c.mailbox.waitFor('gina@example.com');
    });

    it('refuses bad input, an unknown request and a double send, and sends nothing', async () => {
      const count = async () =>
        (await c.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM support_feedback'))
          .rows[0]!.n;
      const before = await count();
      const mails = c.mailbox.messages.length;
      const send = (variables: Record<string, unknown>) =>
        c.stack.graphql(
          doc.SEND_FEEDBACK,
          { email: 'henry@example.com', subject: 'Hi', message: 'Text', ...variables },
          manager,
        );
      expect((await send({ email: 'henry' })).errors?.[0]).toMatchObject({
        message: 'email: Invalid email',
        extensions: { code: 'invalid-input', field: 'email' },
      });
      expect((await send({ subject: '  ' })).errors?.[0]?.extensions).toMatchObject({
        code: 'invalid-input',
        field: 'subject',
      });
      expect((await send({ message: '' })).errors?.[0]?.extensions).toMatchObject({
        code: 'invalid-input',
        field: 'message',
      });
      expect((await send({ message: 'x'.repeat(5001) })).errors?.[0]).toMatchObject({
        message: 'message: at most 5000 characters.',
      });
      expect((await send({ markHandled: true })).errors?.[0]?.extensions).toMatchObject({
        field: 'markHandled',
      });
      expect(codeOf(await send({ supportRequestId: randomUUID() }))).toBe('not-found');
      expect(await count()).toBe(before);
      expect(c.mailbox.messages.length).toBe(mails);

      // A second click sends nothing more.
      expect((await send({ subject: 'Once' })).errors).toBeUndefined();
      const twice = await send({ email: 'HENRY@example.com', subject: 'Once' });
      expect(twice.errors?.[0]).toMatchObject({ extensions: { code: 'duplicate' } });
      expect(await count()).toBe(before + 1);
    });

    it('records nothing and leaves the request open when the mail server refuses', async () => {
      c.mailbox.refuse();
      try {
        const refused = await c.stack.graphql(
          doc.SEND_FEEDBACK,
          {
            email: 'frank@example.com',
            subject: 'Re: payout',
            message: 'Done.',
            supportRequestId: requests['Frank'],
          },
          manager,
        );
        expect(refused.errors?.[0]).toMatchObject({
          message: 'The mail server did not take the message; nothing was sent. Please try again.',
          extensions: { code: 'mail-not-sent' },
        });
      } finally {
        c.mailbox.accept();
      }
      const { rows } = await c.db.pool.query(
        `SELECT handled, (SELECT count(*)::int FROM support_feedback WHERE support_request_id = $1) AS sent
           FROM support_requests WHERE id = $1`,
        [requests['Frank']],
      );
      expect(rows).toEqual([{ handled: false, sent: 0 }]);
    });

    it('limits one staff member to 10 mails a minute', async () => {
      for (let index = 0; index < 10; index += 1) {
        const body = await c.stack.graphql(
          doc.SEND_FEEDBACK,
          { email: `bulk${index}@example.com`, subject: 'Notice', message: `Message ${index}` },
          manager2,
        );
        expect(body.errors).toBeUndefined();
      }
      const eleventh = await c.stack.graphql(
        doc.SEND_FEEDBACK,
        { email: 'bulk10@example.com', subject: 'Notice', message: 'Message 10' },
        manager2,
      );
      expect(eleventh.errors?.[0]).toMatchObject({
        message: 'You have sent 10 messages in the last minute. Please try again in a minute.',
        extensions: { code: 'too-frequent' },
      });
      // Another staff member is not held up.
      expect(
        (
          await c.stack.graphql(
            doc.SEND_FEEDBACK,
            { email: 'bulk10@example.com', subject: 'Notice', message: 'Message 10' },
            admin,
          )
        ).errors,
      ).toBeUndefined();
    });
  });
});
