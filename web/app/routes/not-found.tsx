import { splitLocalePath } from '@app/shared/i18n';

import { translatorFor } from '#app/i18n/meta.ts';
import { notFound } from '#app/utils/not-found.ts';

import type { Route } from './+types/not-found';

/** Every unmatched path: status 404 and the "Page not found" page (spec section 2). */
export function loader(): never {
  notFound();
}

export const meta: Route.MetaFunction = ({ location }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [{ title: t('errors.notFoundTitle') }, { name: 'robots', content: 'noindex' }];
};

export default function NotFound() {
  return null;
}
