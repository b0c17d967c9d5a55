import { Outlet } from 'react-router';

import { SessionApolloProvider } from '@app/client/graphql/apollo-provider.tsx';
import { webGraphql } from '#app/graphql/web-graphql.ts';

/**
 * The pages that read and watch data through Apollo Client (the user's orders, history and
 * affiliate program, and the staff console). Apollo loads with them, so the public pages'
 * first load stays light.
 */
export default function DataLayout() {
  return (
    <SessionApolloProvider session={webGraphql}>
      <Outlet />
    </SessionApolloProvider>
  );
}
