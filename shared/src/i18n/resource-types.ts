/*
 * The shapes of the catalogs, typed against English: a locale's resources module declares its
 * value with these, and the loaders (load.ts) hand them out. Kept apart from the loaders so a
 * locale's module never imports the module that loads it.
 */
import type { en } from './resources/en.ts';
import type { enStaff } from './resources/staff-en.ts';
import type { Catalog, KeyOf } from './types.ts';

/** English's catalogs, namespace by namespace: the source every locale is typed against. */
export type SourceResources = typeof en;
export type Namespace = keyof SourceResources;
/** One locale's catalogs: every namespace and key of English (any text). */
export type LocaleResources = { [N in Namespace]: Catalog<SourceResources[N]> };

/** The staff console's namespaces, typed against English like the rest. */
export type SourceStaffResources = typeof enStaff;
export type StaffNamespace = keyof SourceStaffResources;
export type StaffResources = { [N in StaffNamespace]: Catalog<SourceStaffResources[N]> };

type Sources = SourceResources & SourceStaffResources;
type SourceNamespace = Namespace | StaffNamespace;

/**
 * A key of any catalog as the clients' `t` takes it: `namespace:dotted.path`, a plural group by
 * its base. Shared code that hands keys to the clients (form rules, error maps) types them with
 * this, so a key missing from English fails the typecheck where it is written.
 */
export type CatalogKey = {
  [N in SourceNamespace]: `${N}:${KeyOf<Sources[N]>}`;
}[SourceNamespace];
