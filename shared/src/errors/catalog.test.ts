import { describe, expect, it } from 'vitest';

import { resources } from '#src/i18n/index';
import { LOCALES } from '#src/i18n/locales';

import { ERRORS, errorKey, isErrorCode } from './catalog.ts';
import { errorMessage } from './messages.ts';

describe('the error catalog', () => {
  it('has a message for exactly its codes in every locale, through its key', () => {
    const codes = Object.keys(ERRORS).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(resources[locale].errors).sort(), locale).toEqual(codes);
      for (const code of Object.keys(ERRORS)) {
        if (!isErrorCode(code)) throw new Error(code);
        const [namespace, key] = errorKey(code).split(':') as ['errors', typeof code];
        expect(resources[locale][namespace][key]).toBe(errorMessage(code, locale));
        expect(errorMessage(code, locale).length, `${locale} ${code}`).toBeGreaterThan(0);
      }
    }
  });

  it('answers with client and server error statuses only', () => {
    for (const [code, entry] of Object.entries(ERRORS))
      expect(entry.status >= 400 && entry.status < 600, code).toBe(true);
  });

  it('keeps the concealing codes sensitive', () => {
    expect(ERRORS['invalid-email-password']).toMatchObject({ status: 401, sensitive: true });
    expect(ERRORS['invalid-refresh-token']).toMatchObject({ status: 401, sensitive: true });
  });

  it('knows its codes and nothing else', () => {
    expect(isErrorCode('invalid-transition')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});
