import type { GraphqlRequestError } from '../graphql/request.ts';

/**
 * The numbers an order refusal carries for its message: `unconfirmed-order-limit` says how many
 * open orders and orders an hour an account with an unconfirmed e-mail may have (the actions
 * service's constants, decision 016), so the clients never hard-code them.
 */
export function orderLimits(error: GraphqlRequestError): { maxOpen?: number; maxPerHour?: number } {
  const extensions: Record<string, unknown> = error.errors[0]?.extensions ?? {};
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
  const maxOpen = count(extensions['maxOpen']);
  const maxPerHour = count(extensions['maxPerHour']);
  return {
    ...(maxOpen === undefined ? {} : { maxOpen }),
    ...(maxPerHour === undefined ? {} : { maxPerHour }),
  };
}
