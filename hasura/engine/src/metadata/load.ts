import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { Kind, parse, print, type ObjectTypeDefinitionNode } from 'graphql';
import { parse as parseYaml, type ScalarTag } from 'yaml';
import * as z from 'zod';

import type { MetadataSource } from '../engine-options.ts';

import { Metadata } from './model.ts';

export class MetadataError extends Error {
  override name = 'MetadataError';
}

/** Marks a `!include file.yaml` value, resolved relative to the file that holds it. */
class Include {
  constructor(readonly file: string) {}
}
const includeTag: ScalarTag = {
  tag: '!include',
  identify: (value) => value instanceof Include,
  resolve: (file: string) => new Include(file.trim()),
};

async function readYaml(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new MetadataError(`cannot read ${file}: ${error.code ?? error.message}`);
  });
  return resolveIncludes(parseYaml(text, { customTags: [includeTag] }), path.dirname(file));
}

/** Replaces `!include` tags (and Hasura's quoted `"!include x"` strings) with the file's content. */
async function resolveIncludes(value: unknown, dir: string): Promise<unknown> {
  if (value instanceof Include) return readYaml(path.join(dir, value.file));
  if (typeof value === 'string' && value.startsWith('!include ')) {
    return readYaml(path.join(dir, value.slice('!include '.length).trim()));
  }
  if (Array.isArray(value)) return Promise.all(value.map((item) => resolveIncludes(item, dir)));
  if (value !== null && typeof value === 'object') {
    const entries = await Promise.all(
      Object.entries(value).map(
        async ([key, item]) => [key, await resolveIncludes(item, dir)] as const,
      ),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

async function readOptionalYaml(file: string, fallback: unknown): Promise<unknown> {
  try {
    return (await readYaml(file)) ?? fallback;
  } catch (error) {
    if (error instanceof MetadataError && error.message.includes('ENOENT')) return fallback;
    throw error;
  }
}

/**
 * A CLI project keeps actions in two files: actions.yaml (handler, kind, permissions) and
 * actions.graphql (the SDL of the Query/Mutation fields and custom types). This merges them
 * into the export_metadata shape.
 */
function mergeActions(
  actionsYaml: Record<string, unknown>,
  sdl: string,
): { actions: unknown[]; custom_types: unknown } {
  const yamlActions = (actionsYaml['actions'] as Array<Record<string, unknown>> | undefined) ?? [];
  const yamlTypes = (actionsYaml['custom_types'] as Record<string, unknown[]> | undefined) ?? {};
  const objectRelationships = new Map(
    ((yamlTypes['objects'] ?? []) as Array<{ name: string; relationships?: unknown[] }>).map(
      (object) => [object.name, object.relationships ?? []],
    ),
  );
  const document = sdl.trim() ? parse(sdl) : { definitions: [] };
  const fields = new Map<
    string,
    { type: 'query' | 'mutation'; arguments: unknown[]; output_type: string }
  >();
  const customTypes = {
    scalars: [] as unknown[],
    enums: [] as unknown[],
    input_objects: [] as unknown[],
    objects: [] as unknown[],
  };
  for (const definition of document.definitions) {
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
      case Kind.OBJECT_TYPE_EXTENSION: {
        const object = definition as ObjectTypeDefinitionNode;
        const root =
          object.name.value === 'Query'
            ? 'query'
            : object.name.value === 'Mutation'
              ? 'mutation'
              : undefined;
        if (root) {
          for (const field of object.fields ?? []) {
            fields.set(field.name.value, {
              type: root,
              arguments: (field.arguments ?? []).map((argument) => ({
                name: argument.name.value,
                type: print(argument.type),
              })),
              output_type: print(field.type),
            });
          }
        } else {
          customTypes.objects.push({
            name: object.name.value,
            fields: (object.fields ?? []).map((field) => ({
              name: field.name.value,
              type: print(field.type),
            })),
            relationships: objectRelationships.get(object.name.value) ?? [],
          });
        }
        break;
      }
      case Kind.INPUT_OBJECT_TYPE_DEFINITION:
        customTypes.input_objects.push({
          name: definition.name.value,
          fields: (definition.fields ?? []).map((field) => ({
            name: field.name.value,
            type: print(field.type),
          })),
        });
        break;
      case Kind.ENUM_TYPE_DEFINITION:
        customTypes.enums.push({
          name: definition.name.value,
          values: (definition.values ?? []).map((value) => ({ value: value.name.value })),
        });
        break;
      case Kind.SCALAR_TYPE_DEFINITION:
        customTypes.scalars.push({ name: definition.name.value });
        break;
      default:
        break;
    }
  }
  const actions = yamlActions.map((action) => {
    const name = String(action['name']);
    const field = fields.get(name);
    if (!field)
      throw new MetadataError(`action ${name} is in actions.yaml but not in actions.graphql`);
    const definition = (action['definition'] as Record<string, unknown> | undefined) ?? {};
    return {
      ...action,
      definition: {
        type: field.type,
        ...definition,
        arguments: field.arguments,
        output_type: field.output_type,
      },
    };
  });
  return { actions, custom_types: customTypes };
}

async function loadDirectory(dir: string): Promise<unknown> {
  const version = (await readOptionalYaml(path.join(dir, 'version.yaml'), { version: 3 })) as {
    version?: number;
  };
  const sources = await readOptionalYaml(path.join(dir, 'databases', 'databases.yaml'), []);
  const actionsYaml = (await readOptionalYaml(path.join(dir, 'actions.yaml'), {})) as Record<
    string,
    unknown
  >;
  const sdl = await readFile(path.join(dir, 'actions.graphql'), 'utf8').catch(() => '');
  const cronTriggers = await readOptionalYaml(path.join(dir, 'cron_triggers.yaml'), []);
  // The CLI's file names for the export_metadata keys (allow_list.yaml holds `allowlist`).
  const queryCollections = await readOptionalYaml(path.join(dir, 'query_collections.yaml'), []);
  const allowlist = await readOptionalYaml(path.join(dir, 'allow_list.yaml'), []);
  const introspection = await readOptionalYaml(
    path.join(dir, 'graphql_schema_introspection.yaml'),
    {},
  );
  return {
    version: version.version,
    sources,
    ...mergeActions(actionsYaml, sdl),
    cron_triggers: cronTriggers,
    query_collections: queryCollections,
    allowlist,
    graphql_schema_introspection: introspection,
  };
}

/** Reads and validates metadata from a project directory or an export_metadata object. */
export async function loadMetadata(source: MetadataSource): Promise<Metadata> {
  const raw = 'directory' in source ? await loadDirectory(source.directory) : source.object;
  const parsed = Metadata.safeParse(raw);
  if (!parsed.success) {
    throw new MetadataError(`invalid metadata:\n${z.prettifyError(parsed.error)}`);
  }
  if (parsed.data.sources.length > 1) {
    throw new MetadataError(
      'this engine serves one database source; found ' + parsed.data.sources.length,
    );
  }
  return parsed.data;
}
