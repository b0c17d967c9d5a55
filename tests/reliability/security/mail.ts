import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/*
 * A real SMTP server on loopback for the security checks that keeps each message as it came:
 * the SMTP envelope (who it was really delivered to), the raw source and the parsed message.
 */

export interface CapturedMail {
  /** RCPT TO addresses: where the message really went. */
  recipients: string[];
  raw: string;
  /** The header block as sent, unfolded. */
  headers: string[];
  parsed: ParsedMail;
}

export interface RawMailbox {
  messages: CapturedMail[];
  /** The first message to `to` whose parsed form satisfies `match`. */
  waitFor(
    to: string,
    match?: (mail: CapturedMail) => boolean,
    timeoutMs?: number,
  ): Promise<CapturedMail>;
  close(): Promise<void>;
}

/** The header lines of a raw message, continuation lines joined to theirs. */
export function headerLines(raw: string): string[] {
  const end = raw.search(/\r?\n\r?\n/);
  const block = end === -1 ? raw : raw.slice(0, end);
  return block.split(/\r?\n(?![ \t])/).map((line) => line.replace(/\r?\n[ \t]+/g, ' '));
}

export async function startRawMailbox(port: number): Promise<RawMailbox> {
  const messages: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            messages.push({
              recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw,
              headers: headerLines(raw),
              parsed,
            });
            for (const wake of waiters) wake();
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    messages,
    waitFor(to, match = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find((mail) => mail.recipients.includes(to) && match(mail));
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
