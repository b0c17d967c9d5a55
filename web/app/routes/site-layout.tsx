import { isRouteErrorResponse, Outlet, useRouteError } from 'react-router';

import { ErrorPage } from '#app/components/error-page.tsx';
import { Footer } from '#app/components/layout/footer.tsx';
import { Header } from '#app/components/layout/header.tsx';

/** Header, page, footer: the frame of every portal page (not the Telegram variant). */
export default function SiteLayout() {
  return (
    <>
      <Header />
      <Outlet />
      <Footer />
    </>
  );
}

/** A page's failure keeps the frame: 404 is "Page not found", anything else the 500 page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <>
      <Header />
      <ErrorPage kind={notFound ? 'not-found' : 'server'} />
      <Footer />
    </>
  );
}
