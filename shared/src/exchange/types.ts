/** A currency as the exchange widget and forms show it (public.currencies). */
export interface CurrencyOption {
  code: string;
  symbol: string;
  name: string;
  kind: 'crypto' | 'fiat' | 'cash';
  network: string | null;
  precision: number;
  minAmount: string;
  maxAmount: string;
  /** The network uses a memo / destination tag with addresses (XRP, XLM, TON, ...). */
  memoRequired?: boolean;
}

/** What can be exchanged: currencies, and for each currency code the codes it converts into. */
export interface ExchangeCatalog {
  currencies: CurrencyOption[];
  directions: Record<string, string[]>;
}

export type QuoteSide = 'send' | 'receive';

/** The `quote` action's answer (hasura/metadata/actions.graphql). */
export interface QuoteResult {
  from: string;
  to: string;
  side: QuoteSide;
  sendAmount: string;
  receiveAmount: string;
  rate: string;
  limits: { side: QuoteSide; currency: string; min: string; max: string };
  processing: { mode: 'now' | 'next-window'; at: string | null };
}
