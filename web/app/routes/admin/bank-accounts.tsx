import { splitLocalePath } from '@app/shared/i18n';

import { BankAccountsPage } from '#app/admin/team/bank-accounts-page.tsx';
import { staffTitle, translatorFor } from '#app/i18n/meta.ts';
import stylesHref from '#app/styles/staff-team.css?url';

import type { Route } from './+types/bank-accounts';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesHref }];

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [{ title: staffTitle(t, 'bankAccounts') }, { name: 'robots', content: 'noindex' }];
};

/** /admin/bank-accounts: the service's accounts for fiat payment details. */
export default function BankAccounts() {
  return <BankAccountsPage />;
}
