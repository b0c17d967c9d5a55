import { Outlet, useRouteError } from 'react-router';

import { splitLocalePath } from '@app/shared/i18n';

import { SessionBridge } from '#app/auth/session-bridge.tsx';
import { useReloadOnChunkError } from '#app/build-check/build-check.tsx';
import { ErrorPage, errorKind, errorMeta } from '#app/components/error-page.tsx';
import { Footer } from '#app/components/layout/footer.tsx';
import { Header } from '#app/components/layout/header.tsx';
import { Toaster } from '#app/components/notify/toaster.tsx';

import type { Route } from './+types/site-layout';

/** Header, page, footer: the frame of every portal page (not the Telegram variant). */
export default function SiteLayout() {
  return (
    <>
      <SessionBridge />
      <Header />
      <Outlet />
      <Footer />
      <Toaster />
    </>
  );
}

/** The error pages' titles (a page's own meta wins while it renders). */
export const meta: Route.MetaFunction = ({ error, location }) => {
  if (!error) return [];
  return errorMeta(error, splitLocalePath(location.pathname).locale);
};

/** A page's failure keeps the frame, with the page of its status (errorKind). */
export function ErrorBoundary() {
  const error = useRouteError();
  // A page part of an earlier build that is gone: a reload fetches the current one.
  useReloadOnChunkError(error);
  return (
    <>
      <Header />
      <ErrorPage kind={errorKind(error)} />
      <Footer />
    </>
  );
}
