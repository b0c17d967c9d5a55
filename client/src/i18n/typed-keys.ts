import type { ParseKeys, TFunction } from 'i18next';

import type { SourceResources, SourceStaffResources } from '@app/shared/i18n';

/*
 * i18next's types for both clients: `t` takes only keys of the English catalogs (the source
 * every locale is typed against), so `t('home:widget.titel')` fails the typecheck in the web
 * portal and in the mini-app. This module is part of every client's program through i18n.ts.
 */

type Source = SourceResources & SourceStaffResources;

/**
 * Every namespace's texts under `namespace:` keys (`'home:widget'` → its texts), so a key can
 * be written `home:widget.title`. i18next's types accept a prefixed key only for the namespaces
 * a component named in useTranslation; at run time every namespace is loaded and a prefixed key
 * resolves from any `t`. This type-only fallback namespace makes the types say the same.
 */
type Prefixed = Intersection<
  {
    [N in Extract<keyof Source, string>]: {
      [K in keyof Source[N] & string as `${N}:${K}`]: Source[N][K];
    };
  }[Extract<keyof Source, string>]
>;

/** `A | B` → `A & B`. */
type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    fallbackNS: 'prefixed';
    resources: Source & { prefixed: Prefixed };
  }
}

/** A key every `t` takes: `namespace:dotted.key` (a plural group by its base). */
export type TextKey = ParseKeys<'prefixed'>;

/** A `t` of any namespace, for helpers that take the caller's `t` and use prefixed keys. */
export type AnyT = TFunction<Extract<keyof Source, string>>;

/**
 * A key that arrives as data (a form rule's message, a server's error code): a catalog key by
 * convention, which the type cannot check. i18next shows it like any key; a missing one is
 * reported by the instance's missingKeyHandler (and end-to-end tests fail on it).
 */
export const keyFromData = (value: string): TextKey => value as TextKey;

/** `t` for a key that arrives as data, with values to interpolate (see keyFromData). */
export function translateData(
  t: AnyT,
  key: string | readonly string[],
  values: Readonly<Record<string, unknown>>,
): string {
  // The values a data key needs are not known to the type either: the key decides them.
  const untyped = t as unknown as (key: string | readonly string[], values: object) => string;
  return untyped(key, values);
}
