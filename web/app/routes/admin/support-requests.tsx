import { splitLocalePath } from '@app/shared/i18n';

import { SupportRequestsPage } from '#app/admin/customers/support-requests-page.tsx';
import { staffTitle, translatorFor } from '#app/i18n/meta.ts';
import stylesHref from '#app/styles/staff-customers.css?url';

import type { Route } from './+types/support-requests';

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [{ title: staffTitle(t, 'supportRequests') }, { name: 'robots', content: 'noindex' }];
};

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesHref }];

/** /admin/support-requests (managers and administrators); the page is in app/admin/customers. */
export default function SupportRequests() {
  return <SupportRequestsPage />;
}
