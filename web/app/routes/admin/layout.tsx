import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation, useMatches, useNavigate } from 'react-router';

import { isAdmin } from '@app/client/auth/current-user.ts';
import { SessionApolloProvider } from '@app/client/graphql/apollo-provider.tsx';
import { splitLocalePath } from '@app/shared/i18n';

import { LoadingPage } from '#app/account/sign-in-prompt.tsx';
import { staffAccess, type StaffRouteHandle } from '#app/admin/access.ts';
import { useStaffTexts } from '#app/admin/staff-texts.ts';
import { loginPath } from '#app/auth/redirect.ts';
import { useSession } from '#app/auth/session.ts';
import { ErrorPage } from '#app/components/error-page.tsx';
import { webGraphql } from '#app/graphql/web-graphql.ts';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';
import { translatorFor } from '#app/i18n/meta.ts';

import type { Route } from './+types/layout';

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  // Staff pages are never indexed; their titles come from each page.
  return [{ title: t('common:menu.staff') }, { name: 'robots', content: 'noindex' }];
};

/**
 * "No access", its title included: the meta above renders on the server, which cannot know who
 * is asking (decision 041), so the browser sets the title once the session has said.
 */
function Forbidden({ email }: { email: string | null }) {
  const { t } = useTranslation();
  const title = t('errors.forbiddenTitle');
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
  return (
    <ErrorPage kind="forbidden">
      {email ? <p>{t('errors.signedInAs', { email })}</p> : null}
    </ErrorPage>
  );
}

/**
 * The staff console's frame (spec sections 2 and 6): its own navigation, and the guard. The
 * session lives in the browser, so the server renders the loading state (status 200: it cannot
 * tell a manager from a customer, decision 041); then a visitor is sent to login (and back), and
 * a signed-in person without the role sees "No access".
 */
export default function StaffLayout() {
  const { t } = useTranslation();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const checked = useSession((state) => state.checked);
  const user = useSession((state) => state.user);
  const adminOnly = useMatches().some(
    (match) => (match.handle as StaffRouteHandle | undefined)?.adminOnly === true,
  );
  const access = checked ? staffAccess(user, adminOnly) : 'loading';
  const textsReady = useStaffTexts(locale);

  useEffect(() => {
    if (access === 'sign-in')
      void navigate(loginPath(locale, `${pathname}${search}`), { replace: true });
  }, [access, locale, navigate, pathname, search]);

  if (access === 'loading' || access === 'sign-in') return <LoadingPage />;
  if (access === 'forbidden') return <Forbidden email={user?.email ?? null} />;
  if (!textsReady) return <LoadingPage />;

  const role = isAdmin(user) ? 'administrator' : 'manager';
  const links = [
    { path: '/admin/transactions', label: t('menu.transactions') },
    ...(isAdmin(user) ? [{ path: '/admin/managers', label: t('menu.managers') }] : []),
    { path: '/admin/bank-accounts', label: t('menu.bankAccounts') },
    { path: '/admin/user-custom-currency', label: t('menu.userCustomCurrency') },
    { path: '/admin/support-requests', label: t('menu.supportRequests') },
    ...(isAdmin(user) ? [{ path: '/admin/audit-log', label: t('menu.auditLog') }] : []),
  ];
  return (
    <div className="staff">
      <nav className="staff__nav container" aria-label={t('menu.staff')}>
        <ul>
          {links.map((link) => (
            <li key={link.path}>
              <NavLink to={to(link.path)} className="staff__link">
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {/* Every request of the console acts in the person's staff role (decision 007). */}
      <SessionApolloProvider key={role} session={webGraphql} role={role}>
        <Outlet />
      </SessionApolloProvider>
    </div>
  );
}
