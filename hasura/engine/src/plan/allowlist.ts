import { Kind, print, type DocumentNode, type SelectionNode, type SelectionSetNode } from 'graphql';

import type { Session } from '../auth/session.ts';
import { HasuraError } from '../errors.ts';
import type { Metadata } from '../metadata/model.ts';

import { parseDocument } from './document.ts';

/*
 * The allow-list (HASURA_GRAPHQL_ENABLE_ALLOWLIST), as the official engine applies it, so that
 * development answers what production answers (issue 19, point 8). From graphql-engine:
 *
 * - server/src-lib/Hasura/GraphQL/Execute.hs `checkQueryInAllowlist`: only when enabled and for
 *   every role but `admin` (an admin secret with `x-hasura-role: user` is checked as `user`);
 *   a refusal is `validation-failed` "query is not allowed" at `$`.
 * - server/src-lib/Hasura/RQL/Types/Allowlist.hs `normalizeQuery`: the whole request document
 *   is compared with each stored one after dropping `__typename` fields from the selection sets
 *   of operations, fragments and the fields within them (not inside inline fragments, which it
 *   leaves as they are); the rest must be equal as syntax (formatting aside), so the clients send
 *   exactly the documents `npm run codegen` stores.
 * - `allowlistAllowsQuery` with `AllowlistModeGlobalOnly`, which the community edition (the
 *   image in docker-compose.yml) passes in server/src-exec/.../App.hs: collections scoped to
 *   roles are ignored there, so only global ones count here too.
 */

function stripTypenames(selectionSet: SelectionSetNode): SelectionSetNode {
  const selections = selectionSet.selections.flatMap((selection): SelectionNode[] => {
    if (selection.kind !== Kind.FIELD) return [selection];
    if (selection.name.value === '__typename') return [];
    return [
      selection.selectionSet
        ? { ...selection, selectionSet: stripTypenames(selection.selectionSet) }
        : selection,
    ];
  });
  return { ...selectionSet, selections };
}

/** Normalised forms of documents already seen (parseDocument shares one per text). */
const normalized = new WeakMap<DocumentNode, string>();

/** The document as the allow-list compares it: typenames dropped, printed canonically. */
export function normalizedDocument(document: DocumentNode): string {
  let text = normalized.get(document);
  if (text === undefined) {
    text = printNormalized(document);
    normalized.set(document, text);
  }
  return text;
}

function printNormalized(document: DocumentNode): string {
  return print({
    ...document,
    definitions: document.definitions.map((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION
        ? { ...definition, selectionSet: stripTypenames(definition.selectionSet) }
        : definition,
    ),
  });
}

/**
 * What a role may send at all, before planning: the allow-list when it is enabled, and schema
 * introspection unless the metadata's `graphql_schema_introspection` disables it for the role
 * (the official engine honours that list in its enterprise edition only; with the allow-list on,
 * an introspection query is refused anyway, as no collection holds one).
 */
export interface OperationGate {
  /** Throws Hasura's refusal unless the session may run this document. */
  checkDocument(document: DocumentNode, session: Session): void;
  /** Throws unless the session may introspect the schema. */
  checkIntrospection(session: Session): void;
}

/** The metadata's global allow-list collections (normalised once) and introspection rule. */
export function createOperationGate(
  metadata: Metadata,
  options: { enableAllowlist: boolean },
): OperationGate {
  const collections = new Map(metadata.query_collections.map((c) => [c.name, c]));
  const allowed = new Set<string>();
  for (const entry of metadata.allowlist) {
    if (!entry.scope.global) continue;
    for (const query of collections.get(entry.collection)?.definition.queries ?? []) {
      allowed.add(normalizedDocument(parseDocument(query.query)));
    }
  }
  const noIntrospection = new Set(metadata.graphql_schema_introspection.disabled_for_roles);
  return {
    checkDocument(document, session) {
      if (!options.enableAllowlist || session.role === 'admin') return;
      if (!allowed.has(normalizedDocument(document)))
        throw new HasuraError('validation-failed', 'query is not allowed', '$');
    },
    checkIntrospection(session) {
      // As the enterprise edition: a request that proved the admin secret may introspect any
      // role's schema (codegen and tests do, with `x-hasura-role`).
      if (!session.isAdmin && noIntrospection.has(session.role))
        throw new HasuraError('validation-failed', 'introspection is disabled for this role', '$');
    },
  };
}
