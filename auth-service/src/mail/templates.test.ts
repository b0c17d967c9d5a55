import { describe, expect, it } from 'vitest';

import { codeMail, escapeHtml, passwordChangedMail, resetMail } from './templates.ts';

describe('mail templates', () => {
  const request = { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 <b onmouseover=x>"hi"</b>' };

  it('renders each locale and falls back to English for an unknown one', () => {
    const input = { code: '012345', minutes: 10, ...request };
    expect(codeMail('en', 'a@example.com', input).subject).toBe('Your sign-in code');
    expect(codeMail('ru', 'a@example.com', input).subject).toBe('Ваш код для входа');
    expect(codeMail('ua', 'a@example.com', input).subject).toBe('Ваш код для входу');
    expect(codeMail('de', 'a@example.com', input).subject).toBe('Your sign-in code');
    expect(codeMail('__proto__', 'a@example.com', input).subject).toBe('Your sign-in code');
    expect(codeMail('en', 'a@example.com', input).text).toContain('012345');
  });

  it('escapes request-controlled text in HTML and keeps it single-line in text', () => {
    const mail = passwordChangedMail('en', "x'&y@example.com", {
      ip: '1.2.3.4',
      userAgent: 'line1\r\nline2 <script>',
    });
    expect(mail.html).toContain('x&#39;&amp;y@example.com');
    expect(mail.html).toContain('line1 line2 &lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).not.toMatch(/line1\r?\n/);
  });

  it('puts the configured link in the reset mail, escaped in HTML', () => {
    const mail = resetMail('ru', 'a@example.com', {
      link: 'https://exchange.example/ru/change-password/abc',
      minutes: 60,
    });
    expect(mail.text).toContain('https://exchange.example/ru/change-password/abc');
    expect(mail.html).toContain('href="https://exchange.example/ru/change-password/abc"');
    expect(escapeHtml('<>"\'&')).toBe('&lt;&gt;&quot;&#39;&amp;');
  });
});
