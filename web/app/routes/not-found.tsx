import { data } from 'react-router';

import { splitLocalePath } from '@app/shared/i18n';

import { translatorFor } from '#app/i18n/meta.ts';

import type { Route } from './+types/not-found';

/** Every unmatched path: status 404 and the "Page not found" page (spec section 2). */
export function loader(): never {
  // Without a status text React Router would name it "Internal Server Error" in the page data.
  throw data(null, { status: 404, statusText: 'Not Found' });
}

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [{ title: t('errors.notFoundTitle') }, { name: 'robots', content: 'noindex' }];
};

export default function NotFound() {
  return null;
}
