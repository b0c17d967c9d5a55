/*
 * The application-wide GraphQL error hook (spec section 8): every failed request, query or
 * subscription is reported here, whoever made it. Pages still show their own messages; this is
 * for cross-cutting listeners (diagnostics, monitoring).
 */

export interface GraphqlErrorReport {
  operationName: string | undefined;
  error: unknown;
}

type Listener = (report: GraphqlErrorReport) => void;
const listeners = new Set<Listener>();

/** Subscribes to GraphQL failures; returns the unsubscribe function. */
export function onGraphqlError(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportGraphqlError(report: GraphqlErrorReport): void {
  for (const listener of listeners) {
    try {
      listener(report);
    } catch {
      // A listener's own failure must not turn into the caller's.
    }
  }
}
