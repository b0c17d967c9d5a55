import { splitLocalePath } from '@app/shared/i18n';

import type { StaffRouteHandle } from '#app/admin/access.ts';
import { ManagersPage } from '#app/admin/team/managers-page.tsx';
import { staffTitle, translatorFor } from '#app/i18n/meta.ts';
import stylesHref from '#app/styles/staff-team.css?url';

import type { Route } from './+types/managers';

/** Administrators only: the layout shows anyone else "No access" (decision 041). */
export const handle = { adminOnly: true } satisfies StaffRouteHandle;

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesHref }];

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [{ title: staffTitle(t, 'managers') }, { name: 'robots', content: 'noindex' }];
};

/** /admin/managers: the staff and their roles; appoint and dismiss managers. */
export default function Managers() {
  return <ManagersPage />;
}
