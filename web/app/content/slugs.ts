/** Product pages under /products/ (spec section 2), in menu order. */
export const PRODUCT_SLUGS = [
  'car-purchase',
  'rent-payment',
  'top-up-cards',
  'education-payment',
  'real-estate-spain',
  'luxury-goods-payment',
  'stealth-virtual-card',
  'utility-bills-payment',
  'adult-content-payments',
  'console-services-payment',
  'send-receive-money-ua-eu',
  'anonymous-crypto-purchase',
  'anonymous-domain-purchase',
  'travel-and-tickets-payment',
  'subscription-global-services',
  'crypto-powered-invoice-payments',
] as const;
export type ProductSlug = (typeof PRODUCT_SLUGS)[number];

/** Partner and business pages under /for-partners/ (spec section 2). */
export const PARTNER_SLUGS = [
  'fop-payment',
  'sepa-payment',
  'swift-payment',
  'car-purchase-business',
  'professional-services',
  'aws-google-azure-payment',
  'special-equipment-purchase',
  'digitalocean-cloudflare-payment',
  'travel-and-tickets-payment-business',
] as const;
export type PartnerSlug = (typeof PARTNER_SLUGS)[number];

/** The children of /rules (spec section 2). */
export const RULE_SLUGS = ['ml-kyc', 'exchange-rules', 'privacy-policy'] as const;
export type RuleSlug = (typeof RULE_SLUGS)[number];

/** The footer's pair links (spec section 2), as `/create-transaction/{pair}` slugs. */
export const FOOTER_PAIRS = [
  ['BTC', 'XMR'],
  ['BTC', 'USDTTRC20'],
  ['ETH', 'BTC'],
  ['ETH', 'XMR'],
  ['BNB', 'ETH'],
] as const;
