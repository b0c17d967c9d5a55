import type { ActionMetadata } from '../metadata/model.ts';
import { HasuraError } from '../errors.ts';
import type { PlanContext } from '../plan/context.ts';
import type { CollectedField } from '../plan/selection.ts';

import { coerceFields, type InputSource } from './input.ts';
import { planOutput, type OutputSelection } from './output.ts';
import {
  actionArguments,
  baseName,
  isOpaqueScalar,
  parseTypeRef,
  typeCatalog,
  type TypeCatalog,
  type TypeRef,
} from './types.ts';

/*
 * Planning a synchronous action (Hasura v2): the field's arguments are checked against the
 * action's types and its selection against the output type, before anything is called.
 */

/** A planned call of a synchronous action: its arguments and the selection of its output. */
export interface ActionPlan {
  action: ActionMetadata;
  field: CollectedField;
  /** The handler's `input`: the arguments, checked and coerced (JSON; number literals exact). */
  input: Record<string, unknown>;
  outputType: TypeRef;
  /** The output type is (made of) custom/Postgres scalars or enums: the response passes through. */
  opaqueOutput: boolean;
  selection: OutputSelection;
  catalog: TypeCatalog;
}

/** Checks an action field's arguments and selection against the action's types. */
export function planAction(
  ctx: PlanContext,
  field: CollectedField,
  action: ActionMetadata,
): ActionPlan {
  const { definition } = action;
  if (definition.kind === 'asynchronous') {
    throw new HasuraError(
      'not-supported',
      `asynchronous action '${action.name}' is not supported`,
      field.path,
    );
  }
  const transforms = ['request_transform', 'response_transform'].filter(
    (key) => (definition as Record<string, unknown>)[key] != null,
  );
  if (transforms.length > 0) {
    // Calling the handler untransformed would send it a payload it does not expect.
    throw new HasuraError(
      'not-supported',
      `action '${action.name}' uses ${transforms.join(' and ')}, which this engine does not support`,
      field.path,
    );
  }
  if (!definition.output_type) {
    throw new HasuraError(
      'unexpected',
      `action '${action.name}' has no output type`,
      field.path,
      500,
    );
  }
  const catalog = typeCatalog(ctx.schema.customTypes);
  const argumentTypes = actionArguments(action);
  const provided = new Map<string, InputSource>();
  for (const argument of field.node.arguments ?? []) {
    const name = argument.name.value;
    if (!argumentTypes.some((candidate) => candidate.name === name)) {
      throw new HasuraError(
        'validation-failed',
        `'${field.name}' has no argument named '${name}'`,
        field.path,
      );
    }
    provided.set(name, { ast: argument.value });
  }
  const input = coerceFields(argumentTypes, provided, catalog, ctx.variables, `${field.path}.args`);
  const outputType = parseTypeRef(definition.output_type);
  return {
    action,
    field,
    input,
    outputType,
    opaqueOutput: isOpaqueScalar(baseName(outputType), catalog),
    selection: planOutput(ctx, catalog, outputType, field),
    catalog,
  };
}
