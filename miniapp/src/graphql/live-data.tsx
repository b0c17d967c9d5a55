import type { ReactNode } from 'react';

import { SessionApolloProvider } from '@app/client/graphql/apollo-provider.tsx';
import { graphqlSessionOf } from '@app/client/graphql/graphql-session.ts';

import { CenteredSpinner } from '../components/shell.tsx';
import { browserEnv } from '../env.ts';
import { session } from '../session.ts';
import { useSignIn } from '../sign-in.ts';

/** The mini-app session's GraphQL wiring: HTTP through graphqlRequest, live data over graphql-ws. */
const miniappGraphql = graphqlSessionOf(session, () => browserEnv().PUBLIC_GRAPHQL_URL);

/**
 * Apollo Client for the screens that follow data live (the order, the history), once the silent
 * sign-in is through. It is in their chunk, not the first screen's.
 */
export function LiveData({ children }: { children: ReactNode }) {
  const signIn = useSignIn();
  if (signIn.status !== 'signed-in') return <CenteredSpinner />;
  return <SessionApolloProvider session={miniappGraphql}>{children}</SessionApolloProvider>;
}
