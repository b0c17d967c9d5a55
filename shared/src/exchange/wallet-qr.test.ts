import { describe, expect, it } from 'vitest';

import { addressFromWalletQr } from './wallet-qr.ts';

describe('addressFromWalletQr', () => {
  it('takes a bare address as it is', () => {
    expect(addressFromWalletQr(' TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC\n')).toBe(
      'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
    );
  });

  it('reads the address out of each network’s payment URI', () => {
    expect(
      addressFromWalletQr('bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.015'),
    ).toBe('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    expect(addressFromWalletQr('BITCOIN:BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ')).toBe(
      'BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ',
    );
    expect(
      addressFromWalletQr('ethereum:0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359@1?value=2.014e18'),
    ).toBe('0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359');
    expect(addressFromWalletQr('ethereum:pay-0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359')).toBe(
      '0xfb6916095ca1df60bb79Ce92ce3ea74c37c5d359',
    );
    expect(
      addressFromWalletQr('ton://transfer/EQD2NmD_lH5f5u1Kj3KfGyTvhZSX0Eg6qp2a5IQUKXxOG21n?amount=1'),
    ).toBe('EQD2NmD_lH5f5u1Kj3KfGyTvhZSX0Eg6qp2a5IQUKXxOG21n');
    expect(addressFromWalletQr('tron:TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC')).toBe(
      'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
    );
    expect(
      addressFromWalletQr('solana:mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN?amount=1&label=Shop'),
    ).toBe('mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN');
  });

  it('gives a token transfer’s receiver, not the token contract (EIP-681)', () => {
    expect(
      addressFromWalletQr(
        'ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x8e23Ee67d1332aD560396262C48ffbB01f93d052&uint256=1e6',
      ),
    ).toBe('0x8e23Ee67d1332aD560396262C48ffbB01f93d052');
    expect(
      addressFromWalletQr('ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7/transfer'),
    ).toBeUndefined();
  });

  it('finds no address in links, free text or an empty code', () => {
    expect(addressFromWalletQr('https://evil.example/?address=TJRy')).toBeUndefined();
    expect(addressFromWalletQr('tg://resolve?domain=somebot')).toBeUndefined();
    expect(addressFromWalletQr('send me 5 USDT please')).toBeUndefined();
    expect(addressFromWalletQr('   ')).toBeUndefined();
    expect(addressFromWalletQr('bitcoin:')).toBeUndefined();
    expect(addressFromWalletQr(`tron:${'T'.repeat(200)}`)).toBeUndefined();
  });
});
