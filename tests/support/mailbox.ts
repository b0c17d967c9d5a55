import type { AddressInfo } from 'node:net';

import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on loopback that parses every message it receives. */
export interface Mailbox {
  url: string;
  messages: ParsedMail[];
  /** The first message (received so far or later) to `to` that satisfies `match`. */
  waitFor(
    to: string,
    match?: (mail: ParsedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ParsedMail>;
  /** Messages to `to` received so far. */
  to(address: string): ParsedMail[];
  /**
   * From now on, answers every recipient with a temporary failure (451), as a server that is
   * down for maintenance does, until {@link accept}. `refused` counts the refusals.
   */
  refuse(): void;
  accept(): void;
  readonly refused: number;
  close(): Promise<void>;
}

const recipients = (mail: ParsedMail) =>
  [mail.to ?? []].flat().flatMap((group) => group.value.map((entry) => entry.address ?? ''));

/**
 * Everything a reader of `mail` sees (subject, text and HTML parts, attachments' text), with
 * where it went, e.g. for tests/support/requisites-scan.ts.
 */
export function mailContent(mail: ParsedMail): { where: string; text: string } {
  const attachments = mail.attachments
    .filter((attachment) => /^text\//.test(attachment.contentType))
    .map((attachment) => attachment.content.toString('utf8'));
  return {
    where: `mail to ${recipients(mail).join(', ')}: ${mail.subject ?? '(no subject)'}`,
    text: [
      mail.subject ?? '',
      mail.text ?? '',
      typeof mail.html === 'string' ? mail.html : '',
      ...attachments,
    ].join('\n'),
  };
}

/** Listens on `port` (a free one by default). */
export async function startMailbox(port = 0): Promise<Mailbox> {
  const messages: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  let refusing = false;
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!refusing) {
        callback();
        return;
      }
      refused += 1;
      callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.server.address() as AddressInfo;
  const to = (address: string) => messages.filter((mail) => recipients(mail).includes(address));
  return {
    url: `smtp://127.0.0.1:${bound}`,
    messages,
    to,
    waitFor(address, match = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = to(address).find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    refuse: () => {
      refusing = true;
    },
    accept: () => {
      refusing = false;
    },
    get refused() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
