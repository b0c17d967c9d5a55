import type { CurrencyOption } from '@app/shared/exchange';

/*
 * A currency list as long as the picker must handle (the seeds have 58; the goal is 500+), for
 * currency-picker.test.ts and `npm run bench:picker`: a few real currencies, then tokens on
 * several networks, deterministic.
 */

const REAL: Array<[code: string, symbol: string, name: string, network: string | null]> = [
  ['BTC', 'BTC', 'Bitcoin', 'BTC'],
  ['ETH', 'ETH', 'Ethereum', 'ERC20'],
  ['XMR', 'XMR', 'Monero', 'XMR'],
  ['USDTTRC20', 'USDT', 'Tether', 'TRC20'],
  ['USDTERC20', 'USDT', 'Tether', 'ERC20'],
  ['USDTBEP20', 'USDT', 'Tether', 'BEP20'],
  ['USDCERC20', 'USDC', 'USD Coin', 'ERC20'],
  ['EUR', 'EUR', 'Euro', null],
  ['UAH', 'UAH', 'Ukrainian hryvnia', null],
  ['USDCASH', 'USD', 'US dollar (cash)', null],
];

const NETWORKS = ['ERC20', 'BEP20', 'TRC20', 'SOL', 'POLYGON', 'ARBITRUM'];
const WORDS = ['Alpha', 'Nova', 'Quantum', 'Solar', 'Lumen', 'Orbit', 'Delta', 'Vertex', 'Echo'];

export function manyCurrencies(count: number): CurrencyOption[] {
  const currencies: CurrencyOption[] = REAL.slice(0, count).map(
    ([code, symbol, name, network]) => ({
      code,
      symbol,
      name,
      kind: network ? 'crypto' : code.endsWith('CASH') ? 'cash' : 'fiat',
      network,
      precision: network ? 8 : 2,
      minAmount: '0.001',
      maxAmount: '100000',
    }),
  );
  for (let n = 0; currencies.length < count; n++) {
    const network = NETWORKS[n % NETWORKS.length]!;
    const symbol = `T${String(Math.floor(n / NETWORKS.length)).padStart(3, '0')}`;
    currencies.push({
      code: `${symbol}${network}`,
      symbol,
      name: `${WORDS[n % WORDS.length]!} token ${Math.floor(n / NETWORKS.length)}`,
      kind: 'crypto',
      network,
      precision: 8,
      minAmount: '1',
      maxAmount: '1000000',
    });
  }
  return currencies;
}
