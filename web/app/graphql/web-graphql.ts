import { useSession } from '#app/auth/session.ts';
import { browserEnv } from '#app/utils/public-env.ts';

import { graphqlSessionOf } from './graphql-session.ts';

/** The portal session's GraphQL wiring (data pages and the staff console import it). */
export const webGraphql = graphqlSessionOf(useSession, () => browserEnv().PUBLIC_GRAPHQL_URL);
