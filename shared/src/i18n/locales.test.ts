import { describe, expect, it } from 'vitest';

import { localeFromAcceptLanguage, localizePath, splitLocalePath } from './locales.ts';

describe('locale routing', () => {
  it('reads the prefix of a path', () => {
    expect(splitLocalePath('/')).toEqual({ locale: 'en', path: '/' });
    expect(splitLocalePath('/login')).toEqual({ locale: 'en', path: '/login' });
    expect(splitLocalePath('/ru')).toEqual({ locale: 'ru', path: '/' });
    expect(splitLocalePath('/ua/rules/ml-kyc')).toEqual({ locale: 'ua', path: '/rules/ml-kyc' });
    // Only a whole segment is a prefix.
    expect(splitLocalePath('/rules')).toEqual({ locale: 'en', path: '/rules' });
  });

  it('builds the same page in each locale', () => {
    expect(localizePath('/', 'en')).toBe('/');
    expect(localizePath('/', 'ua')).toBe('/ua');
    expect(localizePath('/contact', 'ru')).toBe('/ru/contact');
    expect(localizePath('/contact', 'en')).toBe('/contact');
  });

  it('picks the best supported browser language', () => {
    expect(localeFromAcceptLanguage('de-DE,uk;q=0.9,ru;q=0.8')).toBe('ua');
    expect(localeFromAcceptLanguage('ru-RU')).toBe('ru');
    expect(localeFromAcceptLanguage('de, fr;q=0.5')).toBeUndefined();
    expect(localeFromAcceptLanguage(undefined)).toBeUndefined();
  });
});
