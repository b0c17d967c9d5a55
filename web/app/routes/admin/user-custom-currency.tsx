import { splitLocalePath } from '@app/shared/i18n';

import { CustomCurrencyPage } from '#app/admin/customers/custom-currency-page.tsx';
import { staffTitle, translatorFor } from '#app/i18n/meta.ts';
import stylesHref from '#app/styles/staff-customers.css?url';

import type { Route } from './+types/user-custom-currency';

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [{ title: staffTitle(t, 'userCustomCurrency') }, { name: 'robots', content: 'noindex' }];
};

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesHref }];

/** /admin/user-custom-currency (managers and administrators); the page is in app/admin/customers. */
export default function UserCustomCurrency() {
  return <CustomCurrencyPage />;
}
