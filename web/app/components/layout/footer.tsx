import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { FOOTER_PAIRS, PRODUCT_SLUGS, RULE_SLUGS } from '#app/content/slugs.ts';
import { pairSlug, shortName } from '#app/content/pairs.ts';
import { useLocalePath } from '#app/i18n/locale.ts';
import { useSession } from '#app/auth/session.ts';

/** Navigation, product links, pair links and legal information (spec section 2). */
export function Footer() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const signedIn = useSession((state) => state.user !== null);
  return (
    <footer className="footer">
      <div className="footer__grid container">
        <nav aria-labelledby="footer-navigation">
          <h2 id="footer-navigation">{t('footer.navigation')}</h2>
          <ul>
            <li>
              <Link to={to('/')}>{t('menu.home')}</Link>
            </li>
            <li>
              <Link to={to('/contact')}>{t('menu.contact')}</Link>
            </li>
            <li>
              <Link to={to('/rules')}>{t('menu.rules')}</Link>
            </li>
            <li>
              <Link to={to('/check-requisites')}>{t('trust:verify.metaTitle')}</Link>
            </li>
            <li>
              {/* Signed in, the account's own pages instead of Login (the header's rule). */}
              {signedIn ? (
                <Link to={to('/transactions-history')}>{t('menu.transactionsHistory')}</Link>
              ) : (
                <Link to={to('/login')}>{t('menu.login')}</Link>
              )}
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-products">
          <h2 id="footer-products">{t('footer.products')}</h2>
          <ul>
            {PRODUCT_SLUGS.slice(0, 8).map((slug) => (
              <li key={slug}>
                <Link to={to(`/products/${slug}`)}>{t(`products.${slug}`)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-pairs">
          <h2 id="footer-pairs">{t('footer.pairs')}</h2>
          <ul>
            {FOOTER_PAIRS.map(([from, to_]) => (
              <li key={`${from}-${to_}`}>
                <Link to={to(`/create-transaction/${pairSlug(from, to_)}`)}>
                  {t('footer.pair', { from: shortName(from), to: shortName(to_) })}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal">{t('footer.legal')}</h2>
          <ul>
            {RULE_SLUGS.map((slug) => (
              <li key={slug}>
                <Link to={to(`/rules/${slug}`)}>{t(`rulePages.${slug}`)}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="footer__legal container">
        <p>{t('footer.amlNotice')}</p>
        <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
