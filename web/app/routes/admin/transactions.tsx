import { splitLocalePath } from '@app/shared/i18n';

import trustStylesHref from '#app/admin/orders/staff-trust.css?url';
import { TransactionsPage } from '#app/admin/orders/transactions-page.tsx';
import { staffTitle, translatorFor } from '#app/i18n/meta.ts';
import stylesHref from '#app/styles/staff-orders.css?url';

import type { Route } from './+types/transactions';

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [{ title: staffTitle(t, 'transactions') }, { name: 'robots', content: 'noindex' }];
};

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesHref },
  { rel: 'stylesheet', href: trustStylesHref },
];

/** The staff console's Transactions page (issue 7): the live queue and bonus withdrawals. */
export default function StaffTransactions() {
  return <TransactionsPage />;
}
