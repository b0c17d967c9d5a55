/*
 * The shapes the catalogs are typed with. English is the source; the other locales must have
 * every key of English with any text. A counted text is a plural group (`expires_one`,
 * `expires_other` in English, CLDR's categories as i18next names them): English needs one and
 * other, Russian and Ukrainian one, few, many and other.
 */

/** CLDR's plural categories, as i18next suffixes them. */
type PluralForm = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
/** The categories Russian and Ukrainian use. */
type SlavicForm = 'one' | 'few' | 'many' | 'other';

type PluralKey = `${string}_${PluralForm}`;
/** The base of a plural key: `expires_one` -> `expires`. */
type PluralBase<K> = K extends `${infer Base}_${PluralForm}` ? Base : never;

/**
 * A Russian or Ukrainian catalog of English's shape: every key, any text, and every plural
 * group in all four of its forms, so a missing key or form fails the typecheck.
 */
export type Messages<T> = {
  [K in keyof T as K extends PluralKey ? never : K]: T[K] extends string ? string : Messages<T[K]>;
} & { [K in PluralBase<keyof T> as `${K}_${SlavicForm}`]: string };

/** Any locale's catalog of English's shape (English itself included): what loaders return. */
export type Catalog<T> = {
  [K in keyof T as K extends PluralKey ? never : K]: T[K] extends string ? string : Catalog<T[K]>;
} & { [K in PluralBase<keyof T> as `${K}_${'one' | 'other'}`]: string } & {
  [K in PluralBase<keyof T> as `${K}_${'few' | 'many'}`]?: string;
};

/**
 * The keys `t` takes for a catalog: dotted paths to its texts, a plural group by its base
 * (`t('code.expires', { count })`).
 */
export type KeyOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${K extends PluralKey ? PluralBase<K> : K}`
    : KeyOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
