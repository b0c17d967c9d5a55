/*
 * Our currency codes (public.currencies.code, seeded in
 * hasura/seeds/default/1763740900100_currencies.sql) as BestChange's export file names them.
 *
 * BestChange (www.bestchange.com/wiki/rates.html) reads the abbreviated currency names of the
 * Estandards list: a ticker, with the network appended where a token lives on several
 * (USDTTRC20, USDTERC20, USDCBEP20, ...), CASH<ISO> for cash and a payment-method prefix for
 * bank money (SEPAEUR for a SEPA transfer, WIRE<ISO> for a transfer to any bank account,
 * CARD<ISO> for a card). Most of our codes already follow it; the ones that do not:
 *
 * | ours        | BestChange | why                                                           |
 * | ----------- | ---------- | ------------------------------------------------------------- |
 * | BNB         | BNBBEP20   | our BNB is paid out on BNB Smart Chain (network BEP20)        |
 * | AVAX        | AVAXC      | our AVAX is on the C-Chain (network AVAXC)                    |
 * | EUR         | SEPAEUR    | our EUR is a SEPA bank transfer (IBAN)                         |
 * | UAH, USD, GBP, PLN, CZK, CHF | WIRE<ISO> | a bank transfer by IBAN, not a card               |
 *
 * Every other code is published as it is: crypto with its ticker or ticker+network (BTC,
 * USDTTRC20, USDTTON, USDCSOL, ...) and cash as CASHUSD, CASHEUR, CASHUAH, CASHPLN. Three codes
 * had no BestChange name we could confirm and are published as ours: ETHARBITRUM,
 * USDTARBITRUM, USDCPOLYGON; check them (and POL, formerly MATIC) against BestChange's current
 * list when applying for the listing, and add any difference here.
 */

const BESTCHANGE_CODES: Readonly<Record<string, string>> = {
  BNB: 'BNBBEP20',
  AVAX: 'AVAXC',
  EUR: 'SEPAEUR',
  UAH: 'WIREUAH',
  USD: 'WIREUSD',
  GBP: 'WIREGBP',
  PLN: 'WIREPLN',
  CZK: 'WIRECZK',
  CHF: 'WIRECHF',
};

/** BestChange's code for one of ours (ours unchanged when the two agree). */
export function bestchangeCode(code: string): string {
  return Object.hasOwn(BESTCHANGE_CODES, code) ? BESTCHANGE_CODES[code]! : code;
}
