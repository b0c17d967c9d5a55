/** A catalog's shape with every message widened to string: the other locales must match it. */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };
