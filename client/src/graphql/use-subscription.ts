import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useSubscription as useApolloSubscription } from '@apollo/client/react';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

export type SubscriptionState<T> =
  { status: 'loading' } | { status: 'live'; data: T } | { status: 'error'; code: string };

/** A failure as a code pages can branch on: the engine's code, `ws-<close code>`, or network. */
export function errorCode(error: unknown): string {
  if (CombinedGraphQLErrors.is(error)) {
    const code = error.errors[0]?.extensions?.['code'];
    return typeof code === 'string' ? code : 'graphql-error';
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return `ws-${code}`;
  return typeof code === 'string' ? code : 'network-error';
}

/**
 * A live query over the engine's websocket, through Apollo Client (apollo-provider.tsx). It
 * resubscribes when the variables change and when the session changes (a new client).
 */
export function useSubscription<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  enabled = true,
): SubscriptionState<TData> {
  const { data, error, loading } = useApolloSubscription(document, {
    variables,
    skip: !enabled,
  });
  if (error) return { status: 'error', code: errorCode(error) };
  if (loading || data === undefined) return { status: 'loading' };
  return { status: 'live', data };
}
