import { browserEnv } from '@app/client/env/public-env.ts';
import { graphqlSessionOf } from '@app/client/graphql/graphql-session.ts';

import { useSession } from '#app/auth/session.ts';

/** The portal session's GraphQL wiring (data pages and the staff console import it). */
export const webGraphql = graphqlSessionOf(useSession, () => browserEnv().PUBLIC_GRAPHQL_URL);
