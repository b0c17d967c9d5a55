import type pg from 'pg';

import { introspect } from '../catalog/introspect.ts';
import type { Metadata } from '../metadata/model.ts';

import { buildSchemaModel } from './build.ts';
import type { SchemaModel } from './model.ts';

/** Introspects what the metadata tracks and builds every role's API from it. */
export async function loadSchemaModel(pool: pg.Pool, metadata: Metadata): Promise<SchemaModel> {
  const tables = metadata.sources[0]?.tables ?? [];
  const catalog = await introspect(
    pool,
    tables.map((table) => table.table),
    tables.flatMap((table) => table.computed_fields.map((field) => field.definition.function)),
  );
  return buildSchemaModel(metadata, catalog);
}
