import fc from 'fast-check';
import type { GraphQLSchema } from 'graphql';

/*
 * What a hostile GraphQL request is (a Shot), the roles it is sent as, and the small helpers
 * every generator of graphql-shots.ts builds one with.
 */

export const ROLES = ['anonymous', 'user', 'manager', 'administrator'] as const;
export type Role = (typeof ROLES)[number];

export interface Shot {
  kind: string;
  role: Role;
  method: string;
  path: string;
  /** Request headers besides the role's credentials (which `credentials: false` leaves out). */
  headers: Record<string, string>;
  credentials: boolean;
  body: string | Uint8Array | undefined;
}

/** Bodies can be a megabyte: failures print a shortened shot. */
export function withShortPrint(shot: Shot): Shot {
  Object.defineProperty(shot, fc.toStringMethod, {
    enumerable: false,
    value: () => {
      const body =
        shot.body === undefined
          ? ''
          : typeof shot.body === 'string'
            ? shot.body
            : Buffer.from(shot.body).toString('latin1');
      const shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body;
      return `${shot.kind} as ${shot.role}: ${shot.method} ${shot.path} ${JSON.stringify(shot.headers)} ${JSON.stringify(shown)}`;
    },
  });
  return shot;
}

export const JSON_TYPE = { 'content-type': 'application/json' };

export const post = (
  kind: string,
  role: Role,
  body: string | Uint8Array,
  headers = JSON_TYPE,
): Shot =>
  withShortPrint({
    kind,
    role,
    method: 'POST',
    path: '/v1/graphql',
    headers,
    credentials: true,
    body,
  });

export const request = (
  query: string,
  variables?: Record<string, unknown>,
  operationName?: string,
): string =>
  JSON.stringify({
    query,
    ...(variables && Object.keys(variables).length > 0 ? { variables } : {}),
    ...(operationName !== undefined ? { operationName } : {}),
  });

export type Gen = fc.GeneratorValue;
export const pick = <T>(g: Gen, items: readonly T[]): T => g(() => fc.constantFrom(...items));
export const chance = (g: Gen, percent: number): boolean =>
  g(fc.integer, { min: 1, max: 100 }) <= percent;

export interface ShotContext {
  schemas: Record<Role, GraphQLSchema>;
  /** The actions' field names (hasura/metadata/actions.yaml). */
  actions: ReadonlySet<string>;
  /** E-mail addresses of accounts that exist (grantManagerRole must never name one). */
  existingEmails: string[];
}
