import { GraphQLError, parse, type DocumentNode } from 'graphql';

import { HasuraError } from '../errors.ts';

/*
 * Parsed documents are kept by their text: clients send a handful of operations over and over,
 * and parsing is a third of the engine's own work on a small query (issue 24's profile). The
 * cache is a bounded LRU over texts no longer than MAX_CACHED_TEXT, so at most a few megabytes;
 * longer texts and syntax errors are never kept. A kept document is deep-frozen: it is shared by
 * every request that sends its text, and nothing may change it for the others.
 */

const MAX_CACHED_DOCUMENTS = 1000;
const MAX_CACHED_TEXT = 16_384;
const documents = new Map<string, DocumentNode>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function parseText(query: string): DocumentNode {
  try {
    return parse(query, { noLocation: true });
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message : 'not a valid graphql query';
    throw new HasuraError('validation-failed', message, '$.query');
  }
}

/** Parses the query text; a syntax error is a Hasura validation error on `$.query`. */
export function parseDocument(query: string): DocumentNode {
  const kept = documents.get(query);
  if (kept !== undefined) {
    // Most recently used last, so the first key is the one to forget.
    documents.delete(query);
    documents.set(query, kept);
    return kept;
  }
  const document = parseText(query);
  if (query.length > MAX_CACHED_TEXT) return document;
  documents.set(query, deepFreeze(document));
  if (documents.size > MAX_CACHED_DOCUMENTS) documents.delete(documents.keys().next().value!);
  return document;
}
