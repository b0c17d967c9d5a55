import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useState, type ReactNode } from 'react';

import { createApolloClient } from './apollo-client.ts';
import type { GraphqlSession } from './graphql-session.ts';
import type { ActingRole } from './acting-role.ts';

/**
 * Apollo Client for the data pages. Signing in or out replaces the client (spec section 7:
 * cache reset and subscription restart), so nothing of one session is shown to the next.
 */
export function SessionApolloProvider({
  session,
  role,
  children,
}: {
  /** The session the client acts for (the portal's or the mini-app's); fixed for its life. */
  session: GraphqlSession;
  /**
   * The role every request acts in (the staff console's); the token's default without one.
   * Fixed for the provider's life: give it a `key` of the role to switch.
   */
  role?: ActingRole;
  children: ReactNode;
}) {
  const [client, setClient] = useState(() => createApolloClient(session, role));

  useEffect(
    () =>
      session.onAuthChange((event) => {
        if (event.type === 'refresh' || !event.resetCache) return;
        setClient(createApolloClient(session, role));
      }),
    [session, role],
  );

  // The replaced (or unmounted) client stops its queries and subscriptions.
  useEffect(() => () => client.stop(), [client]);

  return <ApolloProvider client={client}>{children}</ApolloProvider>;
}
