import { ActionError } from './errors.ts';
import { RawJson, isJsonObject } from './json.ts';
import type { OutputSelection, PlannedRelationship } from './output.ts';
import { BUILT_IN_SCALARS, isOpaqueScalar, type TypeCatalog, type TypeRef } from './types.ts';

/*
 * A 2xx answer checked against the output type with Hasura's rules and messages, then cut to
 * the selection. Hasura checks the top level only: the shape (object, list, scalar, null)
 * and, for an object type, that every non-null field is present and not null; nested
 * objects are taken as they come. Types made of custom or Postgres scalars, and enums, are
 * passed through untouched.
 */

function unexpected(message: string): never {
  throw new ActionError('unexpected', message);
}

function checkObject(value: Record<string, unknown>, fields: ReadonlyMap<string, TypeRef>): void {
  for (const [name, type] of fields) {
    if (!type.nonNull) continue;
    if (!(name in value) || value[name] === undefined)
      unexpected(`field "${name}" expected in webhook response, but not found`);
    if (value[name] === null) unexpected(`expecting not null value for field "${name}"`);
  }
}

/** Throws Hasura's `unexpected` error when `value` does not fit `type` (messages as Hasura words them). */
export function validateResponse(value: unknown, type: TypeRef, catalog: TypeCatalog): void {
  if (type.kind === 'named' && isOpaqueScalar(type.name, catalog)) return;
  if (value === null || value === undefined) {
    if (type.nonNull) unexpected('got null for the action webhook response');
    return;
  }
  if (type.kind === 'list') {
    if (!Array.isArray(value)) unexpected('expecting array for the action webhook response');
    for (const item of value as unknown[]) validateResponse(item, type.of, catalog);
    return;
  }
  const { name } = type;
  if (Array.isArray(value))
    unexpected(`got array for the action webhook response, expecting ${name}`);
  switch (typeof value) {
    case 'number':
      // Hasura's wording, "scalar String" for a number included.
      if (name !== 'Int' && name !== 'Float')
        unexpected(`got scalar String for the action webhook response, expecting ${name}`);
      return;
    case 'boolean':
      if (name !== 'Boolean')
        unexpected(`got scalar Boolean for the action webhook response, expecting ${name}`);
      return;
    case 'string':
      if (name !== 'String' && name !== 'ID')
        unexpected(`got scalar String for the action webhook response, expecting ${name}`);
      return;
    default:
      break;
  }
  if (BUILT_IN_SCALARS.has(name))
    unexpected(`got object for the action webhook response, expecting ${name}`);
  const object = catalog.objects.get(name);
  if (object && isJsonObject(value)) checkObject(value, object.fields);
}

/** A relationship to fill in: the webhook object's key values, and where its JSON goes. */
export interface RelationshipSlot {
  keys: unknown[];
  slot: RawJson;
}

export type RelationshipRequests = Map<PlannedRelationship, RelationshipSlot[]>;

function shapeObject(
  value: Record<string, unknown>,
  selection: Extract<OutputSelection, { kind: 'object' }>,
  requests: RelationshipRequests,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of selection.fields) {
    switch (field.kind) {
      case 'typename':
        result[field.alias] = field.value;
        break;
      case 'value':
        result[field.alias] = value[field.name] ?? null;
        break;
      case 'object':
        result[field.alias] = shapeValue(value[field.name], field.selection, requests);
        break;
      case 'relationship': {
        const { relationship } = field;
        const keys = relationship.keys.map((key) => value[key.field]);
        const slot = new RawJson('null');
        result[field.alias] = slot;
        // A missing or null join value joins nothing: the relationship is null.
        if (keys.some((key) => key === null || key === undefined)) break;
        const list = requests.get(relationship) ?? [];
        list.push({ keys, slot });
        requests.set(relationship, list);
        break;
      }
    }
  }
  return result;
}

/**
 * The response for `selection` from the webhook's value: objects cut to the selected fields
 * (aliases, `__typename`), lists element by element; relationships become slots collected in
 * `requests` for one database round trip.
 */
export function shapeValue(
  value: unknown,
  selection: OutputSelection,
  requests: RelationshipRequests,
): unknown {
  if (selection.kind === 'leaf') return value ?? null;
  if (Array.isArray(value)) return value.map((item) => shapeValue(item, selection, requests));
  if (isJsonObject(value)) return shapeObject(value, selection, requests);
  return null;
}
