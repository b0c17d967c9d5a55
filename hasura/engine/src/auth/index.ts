/** Authentication: HASURA_GRAPHQL_ADMIN_SECRET / JWT_SECRET / UNAUTHORIZED_ROLE → Session. */
export type { Session } from './session.ts';
export {
  DEFAULT_CLAIMS_NAMESPACE,
  JWT_KEY_TYPES,
  JwtConfigError,
  parseJwtConfig,
  type ClaimsMapValue,
  type JwsAlgorithm,
  type JwtClaimsFormat,
  type JwtClaimsLocation,
  type JwtClaimsMap,
  type JwtConfig,
  type JwtHeaderConfig,
  type JwtKeyType,
} from './jwt-config.ts';
export { signJwt } from './jwt-sign.ts';
export {
  createJwtVerifier,
  verifyJwt,
  type JwtVerifier,
  type JwtVerifierOptions,
  type VerifiedJwt,
} from './jwt-verify.ts';
export {
  ACCESS_KEY_HEADER,
  ADMIN_ROLE,
  ADMIN_SECRET_HEADER,
  AuthConfigError,
  ROLE_HEADER,
  createSessionResolver,
  extractJwtSessionClaims,
  type JwtSessionClaims,
  type RequestHeaders,
  type SessionResolver,
  type SessionResolverConfig,
} from './resolve-session.ts';
