import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';

import { LOCALES, localizePath, splitLocalePath } from '@app/shared/i18n';

import { isAdmin, isManager, useSession } from '#app/auth/session.ts';
import { PARTNER_SLUGS, PRODUCT_SLUGS } from '#app/content/slugs.ts';
import { useLocalePath } from '#app/i18n/locale.ts';

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
          <span aria-hidden="true">☰</span>
        </button>
        <nav
          id="site-menu"
          className={open ? 'menu menu--open' : 'menu'}
          aria-label={t('menu.home')}
        >
          <ul className="menu__list">
            <li>
              <NavLink to={to('/')} end onClick={close}>
                {t('menu.home')}
              </NavLink>
            </li>
            <li>
              <details className="menu__group">
                <summary>{t('menu.products')}</summary>
                <ul>
                  {PRODUCT_SLUGS.map((slug) => (
                    <li key={slug}>
                      <NavLink to={to(`/products/${slug}`)} onClick={close}>
                        {t(`products.${slug}`)}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
            <li>
              <details className="menu__group">
                <summary>{t('menu.forPartners')}</summary>
                <ul>
                  {PARTNER_SLUGS.map((slug) => (
                    <li key={slug}>
                      <NavLink to={to(`/for-partners/${slug}`)} onClick={close}>
                        {t(`partners.${slug}`)}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
            <li>
              <NavLink to={to('/contact')} onClick={close}>
                {t('menu.contact')}
              </NavLink>
            </li>
            <li>
              <NavLink to={to('/rules')} onClick={close}>
                {t('menu.rules')}
              </NavLink>
            </li>
            {staff ? (
              <li>
                <details className="menu__group">
                  <summary>{t('menu.transactions')}</summary>
                  <ul>
                    <li>
                      <NavLink to={to('/admin/transactions')} onClick={close}>
                        {t('menu.transactions')}
                      </NavLink>
                    </li>
                    {isAdmin(user) ? (
                      <li>
                        <NavLink to={to('/admin/managers')} onClick={close}>
                          {t('menu.managers')}
                        </NavLink>
                      </li>
                    ) : null}
                    <li>
                      <NavLink to={to('/admin/bank-accounts')} onClick={close}>
                        {t('menu.bankAccounts')}
                      </NavLink>
                    </li>
                    <li>
                      <NavLink to={to('/admin/user-custom-currency')} onClick={close}>
                        {t('menu.userCustomCurrency')}
                      </NavLink>
                    </li>
                    <li>
                      <NavLink to={to('/admin/support-requests')} onClick={close}>
                        {t('menu.supportRequests')}
                      </NavLink>
                    </li>
                  </ul>
                </details>
              </li>
            ) : null}
            {user ? (
              <li>
                <details className="menu__group">
                  <summary>{user.email ?? t('menu.user')}</summary>
                  <ul>
                    <li>
                      <NavLink to={to('/transactions-history')} onClick={close}>
                        {t('menu.transactionsHistory')}
                      </NavLink>
                    </li>
                    <li>
                      <NavLink to={to('/settings')} onClick={close}>
                        {t('menu.settings')}
                      </NavLink>
                    </li>
                    <li>
                      <NavLink to={to('/affiliate-program')} onClick={close}>
                        {t('menu.affiliateProgram')}
                      </NavLink>
                    </li>
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
            hrefLang={other}
            aria-current={other === locale ? 'true' : undefined}
          >
            {t(`languages.${other}`)}
          </a>
        </li>
      ))}
    </ul>
  );
}
