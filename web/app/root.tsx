import { parse as parseCookies, serialize } from 'cookie';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  redirect,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from 'react-router';

import { useI18n } from '@app/client/i18n/i18n.ts';
import {
  isLocale,
  LANGUAGE_TAGS,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE,
  localeFromAcceptLanguage,
  localizePath,
  splitLocalePath,
} from '@app/shared/i18n';

import type { PublicEnv } from '@app/shared/public-env';

import type { Route } from './+types/root';
import { isReferralCode, REFERRAL_COOKIE, REFERRAL_COOKIE_MAX_AGE } from './auth/referral.ts';
import { SessionBridge } from './auth/session-bridge.tsx';
import { BuildCheck, useReloadOnChunkError } from './build-check/build-check.tsx';
import { ErrorPage, errorKind, errorMeta } from './components/error-page.tsx';
import { HOLD_SUBMITS_SCRIPT } from './components/forms/hold-submits-script.ts';
import { Footer } from './components/layout/footer.tsx';
import { Header } from './components/layout/header.tsx';
import { useLocale } from './i18n/locale.ts';
import { LiveChat } from './live-chat/live-chat.tsx';
import stylesHref from './styles/app.css?url';
import inlineStyles from './styles/app.css?inline';

// The server build's map of each locale's catalogs chunk (web/vite/catalog-preloads.ts).
import CATALOG_PRELOADS from 'virtual:catalog-preloads';

/**
 * The site's stylesheet, written into the page by the server (decision 048): the first paint
 * needs it, and a page is a document once per visit (then React Router navigates), so inlining
 * saves the first visit a round trip for some 6 KB of gzip. The browser build leaves it out
 * (`import.meta.env.SSR`): the element it hydrates keeps the server's text. The development
 * server keeps the stylesheet link, for Vite's hot reload.
 */
const INLINE_STYLES = import.meta.env.SSR && !import.meta.env.DEV ? inlineStyles : '';

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon-32.png', sizes: '32x32', type: 'image/png' },
  { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
  ...(import.meta.env.DEV ? [{ rel: 'stylesheet', href: stylesHref }] : []),
];

/**
 * Every request: the referral capture, and the locale rule of spec section 4: a prefixed page
 * is its locale (and remembers it); an unprefixed one follows `?lang=`, then the cookie, then
 * the browser's language, redirecting to the prefixed page when that is not English.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // A malformed address (`/transaction/%E0%A4%A`, a link cut short) names no page: 400, the
  // branded page in the prefix's language (web/server/app.ts sends these here).
  // It carries the public env, which the layout writes as on any page (below).
  if (isMalformedPath(url.pathname))
    throw data(
      { publicEnv: context.publicEnv },
      // Without a status text React Router would name it "Internal Server Error" in the page data.
      { status: 400, statusText: 'Bad Request' },
    );
  const cookies = parseCookies(request.headers.get('cookie') ?? '');
  const headers = new Headers();
  const remember = (name: string, value: string, maxAge: number) =>
    headers.append('Set-Cookie', serialize(name, value, { path: '/', maxAge, sameSite: 'lax' }));

  const ref = url.searchParams.get('ref');
  // Spec section 4: the `ref` query parameter overwrites the cookie.
  if (isReferralCode(ref ?? undefined)) remember(REFERRAL_COOKIE, ref!, REFERRAL_COOKIE_MAX_AGE);

  const { locale, path } = splitLocalePath(url.pathname);
  const prefixed = url.pathname !== path;
  if (prefixed) {
    if (cookies[LOCALE_COOKIE] !== locale) remember(LOCALE_COOKIE, locale, LOCALE_COOKIE_MAX_AGE);
  } else {
    // The answer depends on the cookie and the browser's languages: shared caches must key on them.
    headers.set('Vary', 'Accept-Language, Cookie');
    const asked = url.searchParams.get('lang');
    const chosen = isLocale(asked)
      ? asked
      : isLocale(cookies[LOCALE_COOKIE])
        ? cookies[LOCALE_COOKIE]
        : localeFromAcceptLanguage(request.headers.get('accept-language'));
    if (isLocale(asked)) remember(LOCALE_COOKIE, asked, LOCALE_COOKIE_MAX_AGE);
    if (chosen !== undefined && chosen !== locale) {
      const search = new URLSearchParams(url.search);
      search.delete('lang');
      const query = search.size > 0 ? `?${search.toString()}` : '';
      throw redirect(`${localizePath(path, chosen)}${query}`, { headers });
    }
  }
  return data(
    { publicEnv: context.publicEnv, catalogPreloads: CATALOG_PRELOADS[locale] ?? [] },
    { headers },
  );
}

/** A malformed percent-encoding: the path cannot be decoded. */
function isMalformedPath(path: string): boolean {
  try {
    // The decoded value is used, so no bundler drops the call as free of side effects (Rolldown
    // did: the check never failed).
    return decodeURIComponent(path).length < 0;
  } catch {
    return true;
  }
}

/** The title of a failure the root catches (the layouts' pages give their own). */
export const meta: Route.MetaFunction = ({ error, location }) =>
  error ? errorMeta(error, splitLocalePath(location.pathname).locale) : [];

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * The public env of this render: the root loader's, or, when the loader refused the request
 * itself (a malformed address), the one its error carries; none when the loader failed.
 */
function usePublicEnv(): PublicEnv | undefined {
  const root = useRouteLoaderData<typeof loader>('root');
  const failure = useRouteError();
  return (
    root?.publicEnv ??
    (isRouteErrorResponse(failure)
      ? (failure.data as { publicEnv?: PublicEnv } | null)?.publicEnv
      : undefined)
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const locale = useLocale();
  // Only this locale's catalogs are in the browser (loaded before hydration, entry.client.tsx).
  const i18n = useI18n(locale);
  const publicEnv = usePublicEnv();
  const catalogPreloads = useRouteLoaderData<typeof loader>('root')?.catalogPreloads ?? [];
  return (
    <html lang={LANGUAGE_TAGS[locale]} className="dark" data-theme="dark">
      <head>
        <meta charSet="utf-8" />
        {/* Holds a form's submit until hydration (decision 047); allowed by its hash. */}
        <script dangerouslySetInnerHTML={{ __html: HOLD_SUBMITS_SCRIPT }} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <Meta />
        {/*
         * No nonce on links: the policy lets this origin's stylesheets and icons in without one.
         * React Router would otherwise give them the server's nonce, which the browser's render
         * never has (HydratedRouter takes none, and browsers hide nonces from the DOM), so React
         * reported "Extra attributes from the server: nonce" on every page. Its scripts skip
         * that check (suppressHydrationWarning) and keep theirs.
         */}
        {import.meta.env.DEV ? null : (
          <style dangerouslySetInnerHTML={{ __html: INLINE_STYLES }} suppressHydrationWarning />
        )}
        <Links nonce="" />
        {/*
         * The page's catalogs, which the browser awaits before hydrating: preloaded with the
         * other scripts instead of a round trip after them (web/vite/catalog-preloads.ts).
         */}
        {catalogPreloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
        <ScrollRestoration />
        {publicEnv ? (
          <script
            // The public env for client code; whitelisted on the server (getPublicEnv).
            dangerouslySetInnerHTML={{
              __html: `window.__PUBLIC_ENV__=${JSON.stringify(publicEnv).replace(/</g, '\\u003c')}`,
            }}
          />
        ) : null}
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { publicEnv } = useLoaderData<typeof loader>();
  useEffect(() => {
    // Tests and styles may rely on it: the page is interactive from here on.
    document.documentElement.dataset['hydrated'] = 'true';
  }, []);
  return (
    <>
      <Outlet />
      <BuildCheck buildId={publicEnv.BUILD_ID} />
      <LiveChat
        src={publicEnv.PUBLIC_LIVE_CHAT_SRC}
        globalName={publicEnv.PUBLIC_LIVE_CHAT_GLOBAL}
      />
    </>
  );
}

/**
 * Failures outside any page layout (the layout's own boundary catches the rest), such as the
 * malformed address of the loader: the site's frame around the page of the status.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  // A page part of an earlier build that is gone: a reload fetches the current one.
  useReloadOnChunkError(error);
  // The session (the header's account menu) needs the public env's auth service address.
  const publicEnv = usePublicEnv();
  useEffect(() => {
    // As App does: the page is interactive from here on.
    document.documentElement.dataset['hydrated'] = 'true';
  }, []);
  return (
    <>
      {publicEnv ? <SessionBridge /> : null}
      <Header />
      <ErrorPage kind={errorKind(error)} />
      <Footer />
    </>
  );
}
