import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Locale } from '@app/shared/i18n';

import { hasStaffCatalog, loadStaffCatalog } from '@app/client/i18n/i18n.ts';

/**
 * Whether the staff console's texts are here, loading them if not: they are a chunk of their
 * own per locale, so public pages never carry them. A chunk that fails to load (a new build
 * replaced it) reloads the page once, as other chunks do.
 */
export function useStaffTexts(locale: Locale): boolean {
  const { i18n } = useTranslation();
  const [ready, setReady] = useState(() => hasStaffCatalog(i18n, locale));

  useEffect(() => {
    if (hasStaffCatalog(i18n, locale)) {
      setReady(true);
      return;
    }
    setReady(false);
    let current = true;
    loadStaffCatalog(i18n, locale).then(
      () => {
        if (current) setReady(true);
      },
      () => window.location.reload(),
    );
    return () => {
      current = false;
    };
  }, [i18n, locale]);

  return ready;
}
