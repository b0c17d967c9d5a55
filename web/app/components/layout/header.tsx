import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';

import { LANGUAGE_TAGS, LOCALES, localizePath, splitLocalePath } from '@app/shared/i18n';

import { isAdmin, isManager, useSession } from '#app/auth/session.ts';
import { PARTNER_SLUGS, PRODUCT_SLUGS } from '#app/content/slugs.ts';
import { useLocalePath } from '#app/i18n/locale.ts';
import { CloseIcon, MenuIcon } from '#app/components/icons.ts';

/** The header menu of spec section 2; staff entries only for staff, user entries when signed in. */
export function Header() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const user = useSession((state) => state.user);
  const [open, setOpen] = useState(false);
  const staff = isAdmin(user) || isManager(user);
  const close = () => setOpen(false);
  const navigate = useNavigate();
  const signOut = () => {
    close();
    useSession.getState().logout();
    void navigate(to('/'));
  };

  return (
    <header className="header">
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <div className="header__bar container">
        <Link to={to('/')} className="header__brand" onClick={close}>
          {t('brand')}
        </Link>
        <button
          type="button"
          className="header__toggle"
          aria-expanded={open}
          aria-controls="site-menu"
          onClick={() => setOpen((value) => !value)}
        >
          <span className="visually-hidden">{open ? t('menu.close') : t('menu.open')}</span>
          {open ? (
            <CloseIcon aria-hidden="true" size={22} />
          ) : (
            <MenuIcon aria-hidden="true" size={22} />
          )}
        </button>
        <nav
          id="site-menu"
          className={open ? 'menu menu--open' : 'menu'}
          aria-label={t('menu.main')}
        >
          <ul className="menu__list">
            <MenuLink to={to('/')} end onClick={close}>
              {t('menu.home')}
            </MenuLink>
            <li>
              <details className="menu__group">
                <summary>{t('menu.products')}</summary>
                <ul>
                  {PRODUCT_SLUGS.map((slug) => (
                    <MenuLink key={slug} to={to(`/products/${slug}`)} onClick={close}>
                      {t(`products.${slug}`)}
                    </MenuLink>
                  ))}
                </ul>
              </details>
            </li>
            <li>
              <details className="menu__group">
                <summary>{t('menu.forPartners')}</summary>
                <ul>
                  {PARTNER_SLUGS.map((slug) => (
                    <MenuLink key={slug} to={to(`/for-partners/${slug}`)} onClick={close}>
                      {t(`partners.${slug}`)}
                    </MenuLink>
                  ))}
                </ul>
              </details>
            </li>
            <MenuLink to={to('/contact')} onClick={close}>
              {t('menu.contact')}
            </MenuLink>
            <MenuLink to={to('/rules')} onClick={close}>
              {t('menu.rules')}
            </MenuLink>
            {staff ? (
              // The console's sections (spec section 2's header menu), by role as its own tabs
              // are (routes/admin/layout.tsx): one group, so the bar still fits at 1280 px.
              <li>
                <details className="menu__group">
                  <summary>{t('menu.staff')}</summary>
                  <ul>
                    {staffLinks(isAdmin(user)).map((link) => (
                      <MenuLink key={link.path} to={to(link.path)} onClick={close}>
                        {t(link.label)}
                      </MenuLink>
                    ))}
                  </ul>
                </details>
              </li>
            ) : null}
            {user ? (
              <li>
                <details className="menu__group">
                  <summary>{user.email ?? t('menu.user')}</summary>
                  <ul>
                    <MenuLink to={to('/transactions-history')} onClick={close}>
                      {t('menu.transactionsHistory')}
                    </MenuLink>
                    <MenuLink to={to('/settings')} onClick={close}>
                      {t('menu.settings')}
                    </MenuLink>
                    <MenuLink to={to('/affiliate-program')} onClick={close}>
                      {t('menu.affiliateProgram')}
                    </MenuLink>
                    <li>
                      <button type="button" className="menu__action" onClick={signOut}>
                        {t('menu.logout')}
                      </button>
                    </li>
                  </ul>
                </details>
              </li>
            ) : (
              <li>
                <NavLink to={to('/login')} className="button button--small" onClick={close}>
                  {t('menu.login')}
                </NavLink>
              </li>
            )}
          </ul>
          <LanguageSwitcher />
        </nav>
      </div>
    </header>
  );
}

/** Links to this page in each language; English links carry `?lang=en` to set the cookie. */
function LanguageSwitcher() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { locale, path } = splitLocalePath(pathname);
  return (
    <ul className="languages" aria-label={t('language')}>
      {LOCALES.map((other) => (
        <li key={other}>
          <a
            href={
              other === 'en' ? `${localizePath(path, other)}?lang=en` : localizePath(path, other)
            }
            // A BCP 47 tag, as the head's alternates: the site's `ua` is Ukrainian, uk-UA.
            hrefLang={LANGUAGE_TAGS[other]}
            aria-current={other === locale ? 'true' : undefined}
          >
            {t(`languages.${other}`)}
          </a>
        </li>
      ))}
    </ul>
  );
}

const STAFF_LINKS = [
  { path: '/admin/transactions', label: 'menu.transactions', adminOnly: false },
  { path: '/admin/managers', label: 'menu.managers', adminOnly: true },
  { path: '/admin/bank-accounts', label: 'menu.bankAccounts', adminOnly: false },
  { path: '/admin/user-custom-currency', label: 'menu.userCustomCurrency', adminOnly: false },
  { path: '/admin/support-requests', label: 'menu.supportRequests', adminOnly: false },
  { path: '/admin/audit-log', label: 'menu.auditLog', adminOnly: true },
] as const;

/**
 * The staff console's sections a person may open, as its tabs (routes/admin/layout.tsx): the
 * managers and the audit log are the administrators' only.
 */
const staffLinks = (admin: boolean) => STAFF_LINKS.filter((link) => admin || !link.adminOnly);

/** One entry of the menu; choosing it closes the menu on phones. */
function MenuLink(props: { to: string; end?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <li>
      <NavLink to={props.to} end={props.end ?? false} onClick={props.onClick}>
        {props.children}
      </NavLink>
    </li>
  );
}
