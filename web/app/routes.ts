import {
  index,
  layout,
  prefix,
  route,
  type RouteConfig,
  type RouteConfigEntry,
} from '@react-router/dev/routes';

import { DEFAULT_LOCALE, LOCALES, type Locale } from '@app/shared/i18n';

/*
 * Every route of spec section 2, once per locale: English without a prefix, then /ru and /ua.
 * The same modules serve all three; ids carry the locale so they stay unique, and the page reads
 * its locale from the URL (app/i18n/locale.ts).
 */

function pages(locale: Locale): RouteConfigEntry[] {
  const id = (name: string) => ({ id: `${locale}:${name}` });
  return [
    layout('routes/site-layout.tsx', id('site'), [
      index('routes/home.tsx', id('home')),
      route('products/:slug', 'routes/product-page.tsx', id('product')),
      route('for-partners/:slug', 'routes/partner-page.tsx', id('partner')),
      route('rules', 'routes/rules.tsx', id('rules')),
      route('rules/:slug', 'routes/rules-page.tsx', id('rules-page')),
      route('login', 'routes/login.tsx', id('login')),
      route('sign-up', 'routes/sign-up.tsx', id('sign-up')),
      route('reset-password', 'routes/reset-password.tsx', id('reset-password')),
      route('change-password/:token', 'routes/change-password.tsx', id('change-password')),
      route('settings', 'routes/settings.tsx', id('settings')),
      route('create-transaction/:pear', 'routes/create-transaction.tsx', id('create-transaction')),
      route('contact', 'routes/contact.tsx', id('contact')),
      route('check-requisites', 'routes/check-requisites.tsx', id('check-requisites')),
      route('order/:token', 'routes/order-link.tsx', id('order-link')),
      layout('routes/data-layout.tsx', id('data'), [
        route('transaction/:id', 'routes/transaction.tsx', id('transaction')),
        route(
          'transaction/:id/receipt',
          'routes/transaction-receipt.tsx',
          id('transaction-receipt'),
        ),
        route(
          'transactions-history',
          'routes/transactions-history.tsx',
          id('transactions-history'),
        ),
        route('affiliate-program', 'routes/affiliate-program.tsx', id('affiliate-program')),
        route('admin', 'routes/admin/layout.tsx', id('admin'), [
          index('routes/admin/index.tsx', id('admin-index')),
          route('transactions', 'routes/admin/transactions.tsx', id('admin-transactions')),
          route('managers', 'routes/admin/managers.tsx', id('admin-managers')),
          route('bank-accounts', 'routes/admin/bank-accounts.tsx', id('admin-bank-accounts')),
          route(
            'support-requests',
            'routes/admin/support-requests.tsx',
            id('admin-support-requests'),
          ),
          route(
            'user-custom-currency',
            'routes/admin/user-custom-currency.tsx',
            id('admin-user-custom-currency'),
          ),
          route('audit-log', 'routes/admin/audit-log.tsx', id('admin-audit-log')),
        ]),
      ]),
      route('*', 'routes/not-found.tsx', id('not-found')),
    ]),
  ];
}

export default [
  // A receipt's short-lived download address (decision 036): a file, in no locale.
  route('receipt-download/:token', 'routes/receipt-download.ts', { id: 'receipt-download' }),
  // For search engines (issue 23, decision 043): files, in no locale.
  route('robots.txt', 'routes/robots-txt.ts', { id: 'robots-txt' }),
  route('sitemap.xml', 'routes/sitemap-xml.ts', { id: 'sitemap-xml' }),
  ...pages(DEFAULT_LOCALE),
  ...LOCALES.filter((locale) => locale !== DEFAULT_LOCALE).flatMap((locale) =>
    prefix(locale, pages(locale)),
  ),
] satisfies RouteConfig;
