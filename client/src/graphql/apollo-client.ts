import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition, print } from '@apollo/client/utilities';
import { Kind, OperationTypeNode } from 'graphql';
import type { Client } from 'graphql-ws';
import { Observable } from 'rxjs';

import { reportGraphqlError } from './error-hook.ts';
import type { GraphqlSession } from './graphql-session.ts';
import { sendOperation } from './request.ts';
import type { ActingRole } from './acting-role.ts';

/*
 * Apollo Client for the pages that read and watch data (spec sections 7 to 9): queries and
 * mutations over HTTP through graphqlRequest (its retry and error rules, and the session's
 * invalid-jwt rule: refresh once, then log out and go to /login), subscriptions over the
 * shared graphql-ws client (lazy, 5 retries with backoff and jitter, fatal close codes stop).
 * Everything is network-only. A client lives for one session: login and logout make a new one
 * (see apollo-provider.tsx), which is the cache reset and the subscription restart.
 */

const httpLink = (session: GraphqlSession, role: ActingRole | undefined) =>
  new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const controller = new AbortController();
        // Apollo's transformed document (its cache adds `__typename`), printed by Apollo.
        const definition = getMainDefinition(operation.query);
        const printed = {
          text: print(operation.query),
          type: definition.kind === Kind.OPERATION_DEFINITION ? definition.operation : undefined,
          name: operation.operationName,
        };
        const send = (token: string | null) =>
          sendOperation(session.graphqlUrl(), printed, operation.variables, {
            token,
            role,
            signal: controller.signal,
          });
        const run = session.hasToken() ? session.withAccessToken(send) : send(null);
        run.then(
          (data) => {
            observer.next({ data: data as Record<string, unknown> });
            observer.complete();
          },
          (error: unknown) => {
            if (!controller.signal.aborted) observer.error(error);
          },
        );
        return () => controller.abort();
      }),
  );

/** Subscriptions go to whichever graphql-ws client is current (it restarts on login/logout). */
function liveLink(session: GraphqlSession, role: ActingRole | undefined): ApolloLink {
  let current: { client: Client; link: GraphQLWsLink } | undefined;
  return new ApolloLink((operation) => {
    const client = session.wsClient(role);
    if (current?.client !== client) current = { client, link: new GraphQLWsLink(client) };
    return new Observable((observer) =>
      current!.link.request(operation).subscribe({
        next: (value) => observer.next(value),
        complete: () => observer.complete(),
        error: (error: unknown) => {
          reportGraphqlError({ operationName: operation.operationName, error });
          observer.error(error);
        },
      }),
    );
  });
}

const isSubscription = (operation: ApolloLink.Operation): boolean => {
  const definition = getMainDefinition(operation.query);
  return (
    definition.kind === Kind.OPERATION_DEFINITION &&
    definition.operation === OperationTypeNode.SUBSCRIPTION
  );
};

/** A client acting in the token's default role, or in `role` (the staff console). */
export function createApolloClient(session: GraphqlSession, role?: ActingRole): ApolloClient {
  return new ApolloClient({
    link: ApolloLink.split(isSubscription, liveLink(session, role), httpLink(session, role)),
    cache: new InMemoryCache(),
    ssrMode: typeof window === 'undefined',
    defaultOptions: {
      watchQuery: { fetchPolicy: 'network-only' },
      query: { fetchPolicy: 'network-only' },
    },
  });
}
