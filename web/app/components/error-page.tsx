import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link } from 'react-router';

import type { Locale } from '@app/shared/i18n';

import { useLocalePath } from '#app/i18n/locale.ts';
import { translatorFor } from '#app/i18n/meta.ts';

/**
 * The error pages (spec sections 2 and 8), one per answer the portal gives:
 * - `bad-request` (400): a malformed address, such as a cut-off percent-encoding;
 * - `forbidden` (403): a signed-in person without the staff role on a staff page (decision 041);
 * - `not-found` (404): no such page;
 * - `not-sent` (405): a form posted to a page that takes no form, which happens when it is sent
 *   before the page has hydrated; it is the visitor's way back, not a failure of ours;
 * - `server` (500 and anything else).
 */
export type ErrorKind = 'bad-request' | 'forbidden' | 'not-found' | 'not-sent' | 'server';

const CODES: Record<ErrorKind, number> = {
  'bad-request': 400,
  forbidden: 403,
  'not-found': 404,
  'not-sent': 405,
  server: 500,
};

const TEXTS = {
  'bad-request': ['errors.badRequestTitle', 'errors.badRequestText'],
  forbidden: ['errors.forbiddenTitle', 'errors.forbiddenText'],
  'not-found': ['errors.notFoundTitle', 'errors.notFoundText'],
  'not-sent': ['errors.notSentTitle', 'errors.notSentText'],
  server: ['errors.serverTitle', 'errors.serverText'],
} as const;

/** Which page a route's error is: by the status of a thrown response, else `server`. */
export function errorKind(error: unknown): ErrorKind {
  if (!isRouteErrorResponse(error)) return 'server';
  const kind = (Object.keys(CODES) as ErrorKind[]).find((key) => CODES[key] === error.status);
  return kind ?? (error.status >= 400 && error.status < 500 ? 'bad-request' : 'server');
}

/** The meta of an error page: its title, and never indexed. */
export function errorMeta(error: unknown, locale: Locale) {
  const t = translatorFor(locale);
  return [{ title: t(TEXTS[errorKind(error)][0]) }, { name: 'robots', content: 'noindex' }];
}

export function ErrorPage({ kind, children }: { kind: ErrorKind; children?: ReactNode }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const [title, text] = TEXTS[kind];
  return (
    <main id="main" className="error-page">
      <p className="error-page__code" aria-hidden="true">
        {CODES[kind]}
      </p>
      <h1>{t(title)}</h1>
      <p>{t(text)}</p>
      {children}
      <Link className="button button--primary" to={to('/')}>
        {t('errors.backHome')}
      </Link>
    </main>
  );
}
