import { describe, expect, it } from 'vitest';

import { loginPath, safeRedirect } from './redirect.ts';
import { referralCodeFrom } from './referral.ts';

describe('safeRedirect', () => {
  it('keeps paths of this site, with their query and hash', () => {
    expect(safeRedirect('/settings', 'en')).toBe('/settings');
    expect(safeRedirect('/ru/transaction/42?tab=1#top', 'ru')).toBe('/ru/transaction/42?tab=1#top');
  });

  it("sends everything else to the locale's home", () => {
    for (const target of [
      null,
      '',
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'settings',
    ]) {
      expect(safeRedirect(target, 'ua')).toBe('/ua');
    }
  });

  it('never returns to the auth pages', () => {
    expect(safeRedirect('/login', 'en')).toBe('/');
    expect(safeRedirect('/ru/sign-up', 'ru')).toBe('/ru');
    expect(safeRedirect('/change-password/abc', 'en')).toBe('/');
  });
});

describe('loginPath', () => {
  it('is the localized login page with the way back', () => {
    expect(loginPath('en')).toBe('/login');
    expect(loginPath('ru', '/ru/settings')).toBe('/ru/login?redirectTo=%2Fru%2Fsettings');
    expect(loginPath('ua', '/ua')).toBe('/ua/login');
    expect(loginPath('en', '//evil.example')).toBe('/login');
  });
});

describe('referralCodeFrom', () => {
  it('reads a valid referral_code cookie', () => {
    expect(referralCodeFrom('locale=ru; referral_code=alice42')).toBe('alice42');
  });

  it('ignores invalid or missing codes', () => {
    expect(referralCodeFrom('referral_code=no')).toBeUndefined();
    expect(referralCodeFrom('referral_code=%E0%A4%A')).toBeUndefined();
    expect(referralCodeFrom('referral_code=a%20b%20c')).toBeUndefined();
    expect(referralCodeFrom('')).toBeUndefined();
    expect(referralCodeFrom(undefined)).toBeUndefined();
  });
});
