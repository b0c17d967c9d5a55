import { GraphQLError, parse, type DocumentNode } from 'graphql';

import { HasuraError } from '../errors.ts';

/** Parses the query text; a syntax error is a Hasura validation error on `$.query`. */
export function parseDocument(query: string): DocumentNode {
  try {
    return parse(query, { noLocation: true });
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message : 'not a valid graphql query';
    throw new HasuraError('validation-failed', message, '$.query');
  }
}
