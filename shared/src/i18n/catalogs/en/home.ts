/** The home page: hero, exchange widget, three steps, feature highlights and claims. */
export const home = {
  metaTitle: 'Exchange crypto and cash fast and safely',
  metaDescription:
    'Exchange crypto pairs and cash, buy crypto and pay for goods and services in crypto. Over 50,000 trading pairs, 24/7 support.',
  title: 'Exchange crypto and cash',
  subtitle:
    'Crypto pairs, cash, buying crypto and paying for goods and services — at a fixed rate, processed by a live operator.',
  widget: {
    title: 'Exchange',
    youSend: 'You Send',
    youGet: 'You Get',
    from: 'From',
    to: 'To',
    amount: 'Amount',
    swap: 'Swap currencies',
    search: 'Search currency',
    noResults: 'Nothing found',
    min: 'Min: {{amount}} {{currency}}',
    max: 'Max: {{amount}} {{currency}}',
    rate: '1 {{from}} ≈ {{rate}} {{to}}',
    quoting: 'Calculating…',
    exchange: 'Exchange',
    nextWindow: 'Orders in this direction are processed from {{time}}.',
    yourRate: 'Your rate: 1 {{from}} ≈ {{rate}} {{to}}',
    betterBy: 'you get {{percent}}% more',
    maxIs: 'The most you can exchange is {{amount}} {{currency}}.',
    minIs: 'The least you can exchange is {{amount}} {{currency}}.',
    rateNow: 'Rate now',
    unavailable: 'This direction is not available right now.',
    errors: {
      'amount-below-min': 'The amount is below the minimum.',
      'amount-above-max': 'The amount is above the maximum.',
      'stale-rate': 'Rates are being updated. Please try again in a minute.',
      'unconfirmed-order-limit':
        'Until you confirm your email you can have at most {{maxOpen}} open orders and {{maxPerHour}} orders an hour. Confirm it in Settings.',
      'user-disabled': 'This account is disabled.',
      'unknown-direction': 'This pair cannot be exchanged.',
      'direction-disabled': 'This direction is not available right now.',
      'too-many-decimals': 'Too many decimal places for this currency.',
      invalid: 'Enter a valid amount.',
    },
  },
  steps: {
    title: 'How it works',
    select: {
      title: 'Select a coin',
      text: 'Choose what you send and what you get, and see the rate at once.',
    },
    send: {
      title: 'Send funds',
      text: 'An operator gives you payment details in 2–10 minutes; you pay.',
    },
    get: { title: 'Get crypto', text: 'We send the payout and show you its transaction id.' },
  },
  features: {
    title: 'Why us',
    fixedRate: { title: 'Rate fixed at order', text: 'The amount you see is the amount you get.' },
    operator: {
      title: 'Live operators',
      text: 'Semi-automatic processing: people check every order.',
    },
    cash: {
      title: 'Cash and bank transfers',
      text: 'Cash points, SEPA and card top-ups beside crypto.',
    },
    levels: {
      title: 'Better rates as you grow',
      text: 'Levels lower your margin with every completed order.',
    },
  },
  claims: {
    successful: '100%',
    successfulLabel: 'successful exchanges',
    pairs: '50,000+',
    pairsLabel: 'trading pairs',
    support: '24/7',
    supportLabel: 'support',
    cashPoints: '—',
    cashPointsLabel: 'cash points',
  },
} as const;
