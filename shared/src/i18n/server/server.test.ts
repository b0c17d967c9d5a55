import { describe, expect, it } from 'vitest';

import { LOCALES } from '../locales.ts';
import { serverT, staffT } from './index.ts';
import { serverResources } from './resources.ts';

/** Every dotted key of a catalog, plural groups by their base. */
function keys(catalog: object, prefix = ''): string[] {
  const found = new Set<string>();
  for (const [key, value] of Object.entries(catalog)) {
    if (typeof value === 'string')
      found.add(`${prefix}${key.replace(/_(one|few|many|other)$/, '')}`);
    else for (const nested of keys(value as object, `${prefix}${key}.`)) found.add(nested);
  }
  return [...found];
}

describe('server texts', () => {
  it('has every English key in every locale', () => {
    for (const locale of LOCALES) {
      for (const namespace of ['orderMail', 'authMail', 'receipt'] as const) {
        const t = serverT(locale, namespace) as (key: string, values?: object) => string;
        // A missing key comes back as itself (`cash` is its own English text, so not that one).
        for (const key of keys(serverResources.en[namespace]).filter((key) => key !== 'cash')) {
          expect(t(key, { count: 5 }), `${locale}:${namespace}:${key}`).not.toBe(key);
        }
      }
    }
  });

  it('picks plural forms by the locale’s rules (ua as Ukrainian)', () => {
    const expires = (locale: 'en' | 'ru' | 'ua', count: number) =>
      serverT(locale, 'authMail')('reset.expires', { count });
    expect([1, 2, 5, 21].map((count) => expires('en', count))).toEqual([
      expect.stringContaining('1 minute.'),
      expect.stringContaining('2 minutes.'),
      expect.stringContaining('5 minutes.'),
      expect.stringContaining('21 minutes.'),
    ]);
    expect([1, 2, 5, 21].map((count) => expires('ru', count).split('.')[0])).toEqual([
      'Ссылка одноразовая и действует 1 минуту',
      'Ссылка одноразовая и действует 2 минуты',
      'Ссылка одноразовая и действует 5 минут',
      'Ссылка одноразовая и действует 21 минуту',
    ]);
    expect([1, 3, 11, 22].map((count) => expires('ua', count).split('.')[0])).toEqual([
      'Посилання одноразове і дійсне 1 хвилину',
      'Посилання одноразове і дійсне 3 хвилини',
      'Посилання одноразове і дійсне 11 хвилин',
      'Посилання одноразове і дійсне 22 хвилини',
    ]);
  });

  it('inserts values as they are: not escaped, not read as texts or keys', () => {
    const t = serverT('en', 'orderMail');
    const value = '<b>&"\'</b> {{number}} $t(cash) $t(orderMail:cash)';
    expect(t('created.subject', { number: value })).toBe(`Order #${value} created`);
  });

  it('words the staff copy in English', () => {
    expect(staffT('supportMail')('subject', { from: 'Ann' })).toBe('Support request from Ann');
  });

  it('types the keys', () => {
    const t = serverT('en', 'orderMail');
    // @ts-expect-error: not a key of the order-mail catalog
    expect(t('created.subjekt')).toBe('created.subjekt');
    // @ts-expect-error: a plural form is asked for by its base, with a count
    expect(serverT('en', 'authMail')('reset.expires_one')).toBeTypeOf('string');
  });
});
