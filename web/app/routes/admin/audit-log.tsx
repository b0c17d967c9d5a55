import { splitLocalePath } from '@app/shared/i18n';

import type { StaffRouteHandle } from '#app/admin/access.ts';
import { AuditLogPage } from '#app/admin/audit/audit-log-page.tsx';
import { translatorFor } from '#app/i18n/meta.ts';
import auditStylesHref from '#app/styles/staff-audit.css?url';
import filterStylesHref from '#app/styles/staff-customers.css?url';

import type { Route } from './+types/audit-log';

/** Administrators only: the layout shows anyone else "No access" (decision 041). */
export const handle = { adminOnly: true } satisfies StaffRouteHandle;

// The filters' look is the support requests' (staff-customers.css, .staff-filters).
export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: filterStylesHref },
  { rel: 'stylesheet', href: auditStylesHref },
];

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  // From the public catalog (common): the staff texts may not be loaded where meta runs.
  return [
    { title: `${t('common:menu.auditLog')} · ${t('common:menu.staff')}` },
    { name: 'robots', content: 'noindex' },
  ];
};

/** /admin/audit-log: the staff audit log (issue 23); the page is in app/admin/audit. */
export default function AuditLog() {
  return <AuditLogPage />;
}
