/**
 * Who a request runs as. `variables` holds the session variables with lower-cased names
 * (`x-hasura-role`, `x-hasura-user-id`, ...), values as strings, as Hasura keeps them.
 */
export interface Session {
  role: string;
  variables: Record<string, string>;
  /** True when the request proved the admin secret (or no secret is configured). */
  isAdmin: boolean;
  /** When the credential that produced this session stops being valid (JWT `exp`). */
  expiresAt?: Date;
}
