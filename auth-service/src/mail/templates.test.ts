import { describe, expect, it } from 'vitest';

import { describeAddress, describeDevice } from './device.ts';
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

  it('escapes the address in HTML and never quotes the User-Agent', () => {
    const mail = passwordChangedMail('en', "x'&y@example.com", {
      ip: '1.2.3.4',
      userAgent: 'line1\r\nline2 <script> reply to evil@example.com',
    });
    expect(mail.html).toContain('x&#39;&amp;y@example.com');
    expect(mail.text).toContain('from 1.2.3.4, an unknown device.');
    for (const part of [mail.html, mail.text]) {
      expect(part).not.toContain('line1');
      expect(part).not.toContain('script');
      expect(part).not.toContain('evil@example.com');
    }
  });

  it('describes a device by its browser, major version and OS from a fixed vocabulary', () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 Safari/537.36';
    const safari =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
    expect(describeDevice('en', chrome)).toBe('Chrome 120 on Windows');
    expect(describeDevice('ru', chrome)).toBe('Chrome 120 на Windows');
    expect(describeDevice('ua', safari)).toBe('Safari 17 на iOS');
    // Bowser's fallback names any `Name/x.y`: not in the vocabulary, so not in a mail.
    expect(describeDevice('en', 'SecurityDesk/1.0 (reply to me)')).toBe('an unknown device');
    expect(describeDevice('ru', null)).toBe('неизвестное устройство');
    expect(describeDevice('en', 'Chrome/99999999.1')).toBe('Chrome');
    expect(describeDevice('en', 'Mozilla/5.0 (X11; Linux x86_64) Unknown/1')).toBe(
      'an unknown browser on Linux',
    );
  });

  it('shows an address only when it is an IP address', () => {
    expect(describeAddress('en', '::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(describeAddress('en', '2001:db8::1')).toBe('2001:db8::1');
    expect(describeAddress('en', 'fe80::1%eth0')).toBe('an unknown address');
    expect(describeAddress('ua', 'evil.example')).toBe('невідомої адреси');
    expect(describeAddress('ru', null)).toBe('неизвестного адреса');
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
