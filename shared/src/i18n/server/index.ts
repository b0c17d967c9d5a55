/*
 * The servers' texts, rendered with i18next: `serverT(locale, namespace)` is a `t` bound to one
 * locale and namespace whose keys are typed from the English catalog (a wrong key fails the
 * typecheck). Exported as `@app/shared/i18n/server`, which only server code imports.
 *
 * Interpolation does not escape: a text is plain text, and each caller escapes when it builds
 * HTML (every value, or the whole letter), as it did before the texts moved here.
 */
import { createInstance } from 'i18next';

import type { Locale } from '../locales.ts';
import type { KeyOf } from '../types.ts';
import {
  serverResources,
  staffSource,
  type ServerNamespace,
  type ServerSource,
  type StaffMailNamespace,
  type StaffMailSource,
} from './resources.ts';

/**
 * The language i18next picks plural forms by (Intl.PluralRules): `ua` is the site's code for
 * Ukrainian, whose BCP 47 code is `uk` (with `ua`, Intl would fall back to English's rules).
 */
const LANGUAGE: Record<Locale, string> = { en: 'en', ru: 'ru', ua: 'uk' };
const STAFF_LANGUAGE = 'en-staff';

/** What a text interpolates: display-ready strings, and `count` for a plural group. */
type TextValues = Readonly<Record<string, string | number>>;

/** `t` for one catalog: a dotted key (a plural group by its base, with `count`). */
export type TextOf<Source> = (key: KeyOf<Source>, values?: TextValues) => string;

const instance = createInstance();
void instance.init({
  resources: {
    ...Object.fromEntries(
      Object.entries(serverResources).map(([locale, texts]) => [LANGUAGE[locale as Locale], texts]),
    ),
    [STAFF_LANGUAGE]: staffSource,
  },
  lng: 'en',
  fallbackLng: false,
  initAsync: false,
  interpolation: { escapeValue: false },
  // A value is never read as markup for i18next: no `$t(...)` nesting inside interpolated text.
  nsSeparator: false,
});

function fixed<Source>(language: string, namespace: string): TextOf<Source> {
  const t = instance.getFixedT(language, namespace);
  // Values go in `replace`, apart from t's own options (a value named `lng` stays a value).
  return (key, values = {}) =>
    t(key as string, {
      replace: values,
      ...(typeof values.count === 'number' ? { count: values.count } : {}),
      nest: false,
    });
}

/** The texts of `namespace` in `locale`. */
export const serverT = <N extends ServerNamespace>(
  locale: Locale,
  namespace: N,
): TextOf<ServerSource[N]> => fixed(LANGUAGE[locale], namespace);

/** The staff-facing texts of `namespace` (English). */
export const staffT = <N extends StaffMailNamespace>(namespace: N): TextOf<StaffMailSource[N]> =>
  fixed(STAFF_LANGUAGE, namespace);

/** The auth service's e-mail texts, for typing its templates. */
export type AuthMailSource = ServerSource['authMail'];
