/** Authentication: HASURA_GRAPHQL_ADMIN_SECRET / JWT_SECRET / UNAUTHORIZED_ROLE → Session. */
export { parseJwtConfig } from './jwt-config.ts';
export { signJwt } from './jwt-sign.ts';
export {
  createSessionResolver,
  type RequestHeaders,
  type SessionResolver,
} from './resolve-session.ts';
