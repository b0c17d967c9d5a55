import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import type { ContentPage, PageCta } from '#app/content/pages/types.ts';
import { useLocalePath } from '#app/i18n/locale.ts';

/** One step of the breadcrumbs; the last one is the page itself and has no link. */
export interface Crumb {
  label: string;
  to?: string;
}

interface ContentPageViewProps {
  page: ContentPage;
  /** Between Home and the page itself, e.g. Products, or Rules with its link. */
  trail: readonly Crumb[];
  /** Blocks at the start of the body (the rules overview lists its documents here). */
  intro?: ReactNode;
  /** Blocks at the very end (a rules document links the other documents here). */
  after?: ReactNode;
}

type Translate = ReturnType<typeof useTranslation<'pages'>>['t'];

/** `USDTTRC20` reads "USDT (TRC20)", `CASHUSD` "cash USD"; other codes stay as they are. */
export function ctaCurrencyLabel(code: string, t: Translate): string {
  if (code.startsWith('CASH')) return t('cta.cash', { currency: code.slice(4) });
  const token = /^(USDT|USDC)(TRC20|ERC20|BEP20|SOL|TON|ARBITRUM|POLYGON)$/.exec(code);
  return token ? `${token[1]} (${token[2]})` : code;
}

/** The home page's exchange widget with the pair of the call to action preselected. */
export function useCtaHref(): (cta: PageCta) => string {
  const to = useLocalePath();
  return (cta) =>
    `${to('/')}?${new URLSearchParams({ from: cta.from, to: cta.to }).toString()}#exchange`;
}

/**
 * The long-form layout of product, partner and rules pages: breadcrumbs, the h1 with its lead
 * and call to action, the sections, "How it works", "What you need", "Limits and timing", the FAQ
 * and a closing call to action. Headings go h1 → h2 → h3; parts a page leaves empty are omitted.
 */
export function ContentPageView({ page, trail, intro, after }: ContentPageViewProps) {
  const { t } = useTranslation('pages');
  const to = useLocalePath();
  const ctaHref = useCtaHref();
  const { cta } = page;

  return (
    <main id="main" className="content-page">
      <div className="container">
        <nav className="breadcrumbs" aria-label={t('breadcrumbs')}>
          <ol>
            <li>
              <Link to={to('/')}>{t('crumbs.home')}</Link>
            </li>
            {trail.map((crumb) => (
              <li key={crumb.label}>
                {crumb.to ? <Link to={crumb.to}>{crumb.label}</Link> : <span>{crumb.label}</span>}
              </li>
            ))}
            <li>
              <span aria-current="page">{page.title}</span>
            </li>
          </ol>
        </nav>

        <header className="content-page__hero">
          <h1>{page.title}</h1>
          <p className="lead">{page.lead}</p>
          {cta ? (
            <Link className="button button--primary" to={ctaHref(cta)}>
              {cta.label}
            </Link>
          ) : null}
        </header>

        <div className="content-page__body">
          {intro}

          {page.sections.map((section, index) => (
            <section
              key={section.heading}
              className="content-section"
              aria-labelledby={`content-section-${index}`}
            >
              <h2 id={`content-section-${index}`}>{section.heading}</h2>
              {section.paragraphs?.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              {section.bullets ? (
                <ul className="content-list">
                  {section.bullets.map((bullet) => (
                    <li key={bullet}>{bullet}</li>
                  ))}
                </ul>
              ) : null}
            </section>
          ))}

          {page.steps.length > 0 ? (
            <section className="content-section" aria-labelledby="content-steps">
              <h2 id="content-steps">{t('howItWorks')}</h2>
              <ol className="content-steps">
                {page.steps.map((step, index) => (
                  <li key={step.title} className="card">
                    <span className="steps__number" aria-hidden="true">
                      {index + 1}
                    </span>
                    <h3>{step.title}</h3>
                    <p>{step.text}</p>
                  </li>
                ))}
              </ol>
            </section>
          ) : null}

          {page.requirements.length > 0 || page.limits.length > 0 ? (
            <div className="content-facts">
              {page.requirements.length > 0 ? (
                <section className="card" aria-labelledby="content-requirements">
                  <h2 id="content-requirements">{t('requirements')}</h2>
                  <ul className="content-list">
                    {page.requirements.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                </section>
              ) : null}
              {page.limits.length > 0 ? (
                <section className="card" aria-labelledby="content-limits">
                  <h2 id="content-limits">{t('limits')}</h2>
                  <ul className="content-list">
                    {page.limits.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                </section>
              ) : null}
            </div>
          ) : null}

          {page.faq.length > 0 ? (
            <section className="content-section" aria-labelledby="content-faq">
              <h2 id="content-faq">{t('faq')}</h2>
              <div className="faq">
                {page.faq.map((entry) => (
                  <details key={entry.q} className="faq__item">
                    <summary>{entry.q}</summary>
                    <p>{entry.a}</p>
                  </details>
                ))}
              </div>
              <p className="faq__more">
                {t('faqMore')} <Link to={to('/contact')}>{t('faqContact')}</Link>
              </p>
            </section>
          ) : null}

          {cta ? (
            <section className="content-cta card" aria-labelledby="content-cta">
              <h2 id="content-cta">{t('cta.title')}</h2>
              <p>
                {t('cta.text', {
                  from: ctaCurrencyLabel(cta.from, t),
                  to: ctaCurrencyLabel(cta.to, t),
                })}
              </p>
              <Link className="button button--primary" to={ctaHref(cta)}>
                {cta.label}
              </Link>
            </section>
          ) : null}

          {after}
        </div>
      </div>
    </main>
  );
}
