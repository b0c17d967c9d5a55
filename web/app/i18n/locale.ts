import { useLocation } from 'react-router';

import { localizePath, splitLocalePath, type Locale } from '@app/shared/i18n';

/** The locale of the current page, from its route prefix. */
export function useLocale(): Locale {
  return splitLocalePath(useLocation().pathname).locale;
}

/** Builds links inside the current locale: `to('/contact')` is `/ru/contact` on Russian pages. */
export function useLocalePath(): (path: string) => string {
  const locale = useLocale();
  return (path) => localizePath(path, locale);
}
