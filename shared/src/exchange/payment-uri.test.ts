import { describe, expect, it } from 'vitest';

import { paymentUri, toBaseUnits, type PaymentRequest } from './payment-uri.ts';
import { addressFromWalletQr } from './wallet-qr.ts';

const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const EVM = '0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359';
const TRON = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const TON = 'UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG';
const SOL = 'HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH';

describe('toBaseUnits', () => {
  it('moves the decimal point in the string, exactly', () => {
    expect(toBaseUnits('1.5', 18)).toBe('1500000000000000000');
    expect(toBaseUnits('0.000000000000000001', 18)).toBe('1');
    // 0.1 + 0.2 as floats is 0.30000000000000004; as a string it stays exact.
    expect(toBaseUnits('0.3', 18)).toBe('300000000000000000');
    expect(toBaseUnits('123456789012345678.123456789012345678', 18)).toBe(
      '123456789012345678123456789012345678',
    );
    expect(toBaseUnits('12.50000000', 6)).toBe('12500000');
    expect(toBaseUnits('100', 0)).toBe('100');
  });

  it('refuses what a chain cannot hold', () => {
    expect(toBaseUnits('0.0000001', 6)).toBeUndefined();
    expect(toBaseUnits('0', 6)).toBeUndefined();
    expect(toBaseUnits('-1', 6)).toBeUndefined();
    expect(toBaseUnits('1e3', 6)).toBeUndefined();
    expect(toBaseUnits('1,5', 6)).toBeUndefined();
  });
});

describe('paymentUri', () => {
  const cases: Array<[string, PaymentRequest, string]> = [
    [
      'BIP-21 bitcoin',
      { currency: 'BTC', network: 'BTC', address: BTC, amount: '0.01500000' },
      `bitcoin:${BTC}?amount=0.015`,
    ],
    [
      'BIP-21 litecoin',
      {
        currency: 'LTC',
        network: 'LTC',
        address: 'ltc1qg82tf5wz2v4d7k7p3k0k8yq3wsjqh0l5y7k3gq',
        amount: '2',
      },
      'litecoin:ltc1qg82tf5wz2v4d7k7p3k0k8yq3wsjqh0l5y7k3gq?amount=2',
    ],
    [
      'EIP-681 ether in wei',
      { currency: 'ETH', network: 'ERC20', address: EVM, amount: '0.25000000' },
      `ethereum:${EVM}@1?value=250000000000000000`,
    ],
    [
      'EIP-681 ERC-20 transfer',
      { currency: 'USDTERC20', network: 'ERC20', address: EVM, amount: '150.5' },
      `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${EVM}&uint256=150500000`,
    ],
    [
      'EIP-681 BEP-20 with 18 decimals',
      { currency: 'USDTBEP20', network: 'BEP20', address: EVM, amount: '20' },
      `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${EVM}&uint256=20000000000000000000`,
    ],
    [
      'TON with memo in nanotons',
      { currency: 'TON', network: 'TON', address: TON, amount: '5.5', memo: 'order 42/7' },
      `ton://transfer/${TON}?amount=5500000000&text=order%2042%2F7`,
    ],
    [
      'TON jetton',
      { currency: 'USDTTON', network: 'TON', address: TON, amount: '20', memo: '123' },
      `ton://transfer/${TON}?jetton=EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs&amount=20000000&text=123`,
    ],
    [
      'Solana Pay SOL',
      { currency: 'SOL', network: 'SOL', address: SOL, amount: '0.10000000' },
      `solana:${SOL}?amount=0.1`,
    ],
    [
      'Solana Pay SPL token with memo',
      { currency: 'USDTSOL', network: 'SOL', address: SOL, amount: '25', memo: 'A&B' },
      `solana:${SOL}?amount=25&spl-token=Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB&memo=A%26B`,
    ],
    [
      'TRON TRX',
      { currency: 'TRX', network: 'TRC20', address: TRON, amount: '100.000000' },
      `tron:${TRON}?amount=100`,
    ],
  ];

  it.each(cases)('builds %s', (_name, request, expected) => {
    expect(paymentUri(request)).toBe(expected);
  });

  it.each(cases)('round-trips %s through addressFromWalletQr', (_name, request) => {
    expect(addressFromWalletQr(paymentUri(request))).toBe(request.address);
  });

  it('leaves out an amount it is not given', () => {
    expect(paymentUri({ currency: 'BTC', network: 'BTC', address: BTC })).toBe(`bitcoin:${BTC}`);
    expect(paymentUri({ currency: 'ETH', network: 'ERC20', address: EVM, amount: null })).toBe(
      `ethereum:${EVM}@1`,
    );
  });

  it('falls back to the bare address where a URI could mislead', () => {
    const bare = (request: PaymentRequest) => expect(paymentUri(request)).toBe(request.address);
    // TRC20 tokens: no token parameter TRON wallets agree on.
    bare({ currency: 'USDTTRC20', network: 'TRC20', address: TRON, amount: '20' });
    // Fiat, cash, unknown networks and tokens, a currency on another network than its own.
    bare({ currency: 'EUR', network: null, address: 'DE89370400440532013000', amount: '50' });
    bare({ currency: 'XRP', network: 'XRP', address: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh' });
    bare({ currency: 'NEWTOKEN', network: 'ERC20', address: EVM, amount: '1' });
    bare({ currency: 'USDTERC20', network: 'BEP20', address: EVM, amount: '1' });
    // An amount finer than the chain's unit, a memo a chain cannot carry, a malformed address.
    bare({ currency: 'USDTERC20', network: 'ERC20', address: EVM, amount: '1.0000001' });
    bare({ currency: 'BTC', network: 'BTC', address: BTC, amount: '1', memo: '7' });
    bare({ currency: 'ETH', network: 'ERC20', address: 'not-an-address', amount: '1' });
    bare({ currency: 'TON', network: 'TON', address: `0:${'a'.repeat(64)}`, amount: '1' });
  });
});
