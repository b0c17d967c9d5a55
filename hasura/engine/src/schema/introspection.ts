import { HasuraError } from '../errors.ts';
import type { OperationPlan } from '../plan/operation.ts';

import type { RoleSchema } from './model.ts';

/** Answers `__schema` / `__type` root fields. */
export function answerIntrospection(_schema: RoleSchema, _plan: OperationPlan): Promise<Record<string, unknown>> {
  return Promise.reject(new HasuraError('not-supported', 'introspection is not served yet', '$'));
}
