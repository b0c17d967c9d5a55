/**
 * The GraphQL role a request acts in (Hasura's `x-hasura-role`): absent, the token's default
 * role (`user`); the staff console asks for `manager` or `administrator`, which the token must
 * allow.
 */
export type ActingRole = 'manager' | 'administrator';
