import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import nodemailer from 'nodemailer';

import type { Logger } from '../log/index.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go (e.g. the customer, for a mail to the staff inbox). */
  replyTo?: string;
  /**
   * A fixed Message-ID (`<...@...>`): a message sent twice for one event carries the same id,
   * so mail systems that deduplicate by it show it once.
   */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Real delivery through the SMTP server at SMTP_URL (smtp:// or smtps://, nodemailer syntax). */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

/**
 * Development without SMTP: each message becomes an .eml file in the outbox folder, and one
 * log line names it, so the launcher's output shows where the code or link is.
 */
export function createOutboxMailer(
  directory: string,
  from: string,
  logger: Pick<Logger, 'info'>,
): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await mkdir(directory, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(directory, `${stamp}-${randomBytes(3).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info({ outbox: file }, `mail "${message.subject}" written to ${file}`);
    },
    close: () => transport.close(),
  };
}
