import { redirect } from 'react-router';

import { localizePath, splitLocalePath } from '@app/shared/i18n';

import type { Route } from './+types/index';

/** /admin itself opens the queue, the page staff work in. */
export function loader({ request }: Route.LoaderArgs) {
  const { locale } = splitLocalePath(new URL(request.url).pathname);
  throw redirect(localizePath('/admin/transactions', locale));
}

export default function StaffHome() {
  return null;
}
