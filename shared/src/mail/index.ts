/**
 * Outgoing mail for the Node.js services (imported as `@app/shared/mail`; not for browsers):
 * SMTP delivery, the development outbox, and HTML escaping for templates.
 */
export { escapeHtml } from './html.ts';
export { createOutboxMailer, createSmtpMailer, type Mailer, type MailMessage } from './mailer.ts';
