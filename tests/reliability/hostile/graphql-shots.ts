import fc from 'fast-check';

import type { Shot, ShotContext } from './graphql-shot-kit.ts';
import {
  aliasBombShot,
  deepNestingShot,
  fragmentBombShot,
  hugeListShot,
  schemaShot,
  unknownShot,
  wrongVariablesShot,
} from './graphql-shots-schema.ts';
import {
  batchShot,
  encodingShot,
  headerShot,
  malformedJsonShot,
  transportShot,
} from './graphql-shots-transport.ts';
import { actionShot, enormousStringShot, injectionShot } from './graphql-shots-injection.ts';

export { ROLES, type Role, type Shot, type ShotContext } from './graphql-shot-kit.ts';
export { safeActionArgument } from './graphql-shots-injection.ts';

/*
 * Hostile GraphQL requests, generated from each role's own schema (introspected from the
 * running engine), so that they reach deep into the planner and the database rather than
 * stopping at the first unknown name. Every kind the issue lists has its generator;
 * `graphqlShot` composes them. Mutations are generated so that they can never write (see
 * `neverWrites` in graphql-shot-arguments.ts): the "nothing written" comparison then needs no
 * exceptions.
 */

export interface Signer {
  sign: (claims: object, key?: string, alg?: 'HS256' | 'none') => string;
  claims: (id: string, roles: string[], expiresIn?: number) => object;
}

/** Every kind of hostile request, weighted so that each is well represented. */
export function graphqlShot(context: ShotContext, signer: Signer): fc.Arbitrary<Shot> {
  return fc.oneof(
    { weight: 30, arbitrary: schemaShot(context) },
    { weight: 8, arbitrary: deepNestingShot(context) },
    { weight: 3, arbitrary: aliasBombShot(context) },
    { weight: 5, arbitrary: fragmentBombShot },
    { weight: 4, arbitrary: hugeListShot(context) },
    { weight: 6, arbitrary: unknownShot(context) },
    { weight: 6, arbitrary: wrongVariablesShot(context) },
    { weight: 6, arbitrary: malformedJsonShot },
    { weight: 5, arbitrary: transportShot },
    { weight: 2, arbitrary: enormousStringShot(context) },
    { weight: 12, arbitrary: injectionShot(context) },
    { weight: 14, arbitrary: actionShot(context) },
    { weight: 4, arbitrary: batchShot(context) },
    { weight: 5, arbitrary: encodingShot },
    { weight: 5, arbitrary: headerShot(signer) },
  );
}

/** A hostile operation for a WebSocket `subscribe` (any kind that is one JSON request). */
export function operationPayload(context: ShotContext): fc.Arbitrary<unknown> {
  return fc
    .oneof(
      schemaShot(context, 'ws'),
      deepNestingShot(context),
      unknownShot(context),
      wrongVariablesShot(context),
      injectionShot(context),
      actionShot(context, 'ws'),
      fragmentBombShot,
    )
    .map((shot) => {
      try {
        return JSON.parse(typeof shot.body === 'string' ? shot.body : '{}') as unknown;
      } catch {
        return shot.body;
      }
    });
}
