import { describe, expect, it } from 'vitest';

import { TOKEN_ICONS } from '../src/currency-icons/icon-set.ts';
import { iconsFolder, loadCurrencyIcons } from './currency-icons.ts';

describe('the currency icons the build copies', () => {
  it('reads every listed icon from the set as an SVG', async () => {
    const icons = await loadCurrencyIcons();
    expect(icons.size).toBeGreaterThanOrEqual(TOKEN_ICONS.length);
    for (const ticker of ['BTC', 'USDT', 'ETH']) {
      expect(icons.get(`tokens/${ticker}.svg`)).toMatch(/^<svg[^>]*viewBox/);
    }
    expect(icons.get('networks/tron.svg')).toMatch(/^<svg/);
  });

  it('names the folder after the icons, so a changed icon gets a new URL', async () => {
    const icons = await loadCurrencyIcons();
    const folder = iconsFolder(icons);
    expect(folder).toMatch(/^assets\/currency-icons-[0-9a-f]{10}$/);
    const changed = new Map(icons).set('tokens/BTC.svg', '<svg></svg>');
    expect(iconsFolder(changed)).not.toBe(folder);
  });
});
