/*
 * The shapes of the catalogs, typed against English: a locale's resources module declares its
 * value with these, and the loaders (load.ts) hand them out. Kept apart from the loaders so a
 * locale's module never imports the module that loads it.
 */
import type { en } from './resources/en.ts';
import type { enStaff } from './resources/staff-en.ts';
import type { Catalog } from './types.ts';

/** English's catalogs, namespace by namespace: the source every locale is typed against. */
export type SourceResources = typeof en;
export type Namespace = keyof SourceResources;
/** One locale's catalogs: every namespace and key of English (any text). */
export type LocaleResources = { [N in Namespace]: Catalog<SourceResources[N]> };

/** The staff console's namespaces, typed against English like the rest. */
export type SourceStaffResources = typeof enStaff;
export type StaffNamespace = keyof SourceStaffResources;
export type StaffResources = { [N in StaffNamespace]: Catalog<SourceStaffResources[N]> };
