import { describe, expect, it } from 'vitest';

import { createI18n } from './i18n.ts';

/*
 * The keys are typed (./typed-keys.ts): this file fails the typecheck (`tsc -p client`, which
 * CI runs) if a wrong key below stops being an error, since `@ts-expect-error` then has none.
 */
describe('typed keys', () => {
  const { t } = createI18n('en');

  it('take the catalogs’ keys, with or without their namespace', () => {
    expect(t('home:widget.title')).toBe('Exchange');
    expect(t('menu.home')).toBe('Home');
    expect(t('staffOrders:statuses.on_hold')).toBeTypeOf('string');
  });

  it('refuse a key the catalogs do not have', () => {
    // @ts-expect-error: a misspelt key
    expect(t('home:widget.titel')).toBe('widget.titel');
    // @ts-expect-error: a key of another namespace without its prefix
    expect(t('widget.title')).toBe('widget.title');
  });
});
