import { describe, expect, it } from 'vitest';

import { resources } from '@app/shared/i18n';

import { catalogOf, createI18n, loadCatalog } from './i18n.ts';

// Vitest runs this as server code (import.meta.env.SSR): every locale is there synchronously.
describe('i18n instances', () => {
  it('render each locale from its own catalogs, synchronously', () => {
    expect(createI18n('en').t('home:widget.title')).toBe('Exchange');
    expect(createI18n('ua').t('home:widget.title')).toBe(resources.ua.home.widget.title);
    expect(createI18n('ru').t('menu.home')).toBe(resources.ru.common.menu.home);
  });

  it('have only their own locale, so nothing falls back to English', () => {
    const ru = createI18n('ru');
    expect(Object.keys(ru.options.resources ?? {})).toEqual(['ru']);
    expect(ru.options.fallbackLng).toBe(false);
  });

  it('find the server catalogs already loaded', async () => {
    await loadCatalog('ua');
    expect(catalogOf('ua')).toBe(resources.ua);
  });
});
