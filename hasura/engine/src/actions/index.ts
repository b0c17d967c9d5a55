import type { ActionMetadata } from '../metadata/model.ts';
import type { PlanContext } from '../plan/context.ts';
import type { CollectedField } from '../plan/selection.ts';
import { HasuraError } from '../errors.ts';
import type { Session } from '../auth/session.ts';
import type pg from 'pg';

/** A planned call of a synchronous action: its arguments and the selection of its output. */
export interface ActionPlan {
  action: ActionMetadata;
  field: CollectedField;
}

export interface ActionExecutionContext {
  session: Session;
  /** The client's request headers (lower-cased), for forward_client_headers. */
  headers: Readonly<Record<string, string | undefined>>;
  environment: Record<string, string | undefined>;
  pool: pg.Pool;
  stringifyNumericTypes: boolean;
}

/** Checks an action field's arguments and selection against the action's types. */
export function planAction(_ctx: PlanContext, field: CollectedField, action: ActionMetadata): ActionPlan {
  return { action, field };
}

/** Calls the action's handler and returns the field's JSON (text). */
export function executeAction(plan: ActionPlan, _ctx: ActionExecutionContext): Promise<string> {
  return Promise.reject(new HasuraError('not-supported', 'actions are not served yet', plan.field.path));
}
