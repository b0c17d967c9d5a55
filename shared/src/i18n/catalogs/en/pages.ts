/** The frame of the long-form pages (products, partner pages, rules); their text is page data. */
export const pages = {
  breadcrumbs: 'Breadcrumbs',
  crumbs: {
    home: 'Home',
    products: 'Products',
    partners: 'For partners',
    rules: 'Rules',
  },
  howItWorks: 'How it works',
  requirements: 'What you need',
  limits: 'Limits and timing',
  faq: 'Frequently asked questions',
  faqMore: 'Did not find your answer?',
  faqContact: 'Write to support',
  cta: {
    title: 'Ready to start?',
    text: 'The exchange opens with {{from}} → {{to}} selected. You can change the pair and the amount before you create the order.',
    cash: 'cash {{currency}}',
  },
  rules: {
    documents: 'Documents',
    related: 'Related documents',
    open: 'Read: {{title}}',
  },
} as const;
