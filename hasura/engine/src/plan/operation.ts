import {
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';

import { planAction } from '../actions/plan.ts';
import { HasuraError } from '../errors.ts';
import { TRUE, type BoolExp, type RootField } from '../schema/model.ts';

import type { PlanContext } from './context.ts';
import { checkEstimatedRows } from './cost.ts';
import { parseDocument } from './document.ts';
import { checkOperationLimitsOnce, checkVariableDepth, DEFAULT_LIMITS } from './limits.ts';
import type { RootPlan } from './root-plan.ts';
import { planMutation } from './mutation.ts';
import {
  parseAggregateSelection,
  parseSelectArgs,
  parseTableSelection,
  SELECT_ARGUMENTS,
} from './select.ts';
import { collectFields, fieldArguments, type CollectedField } from './selection.ts';
import { coerceColumnValue, toPlainJson, valueFromAst, type Variables } from './values.ts';
import { literalFrom, VariableBindings } from './variable-bindings.ts';

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown> | null | undefined;
  operationName?: string | null | undefined;
}

export type OperationType = 'query' | 'mutation' | 'subscription';

export interface OperationPlan {
  type: OperationType;
  roots: RootPlan[];
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Variables;
  /** For a query planned with `recordBindings`: which variables are parameters only. */
  bindings?: VariableBindings | undefined;
}

const ROOT_TYPE_NAMES: Record<OperationType, string> = {
  query: 'query_root',
  mutation: 'mutation_root',
  subscription: 'subscription_root',
};

/** The operation's kind as a plain string union (graphql's OperationTypeNode is an enum). */
const operationType = (operation: OperationDefinitionNode): OperationType => operation.operation;

function chooseOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) {
    const found = operations.find((operation) => operation.name?.value === operationName);
    if (!found)
      throw new HasuraError(
        'validation-failed',
        `no such operation found in the document: ${JSON.stringify(operationName)}`,
        '$',
      );
    return found;
  }
  if (operations.length !== 1) {
    throw new HasuraError(
      'validation-failed',
      'exactly one operation has to be present in the document when operationName is not specified',
      '$',
    );
  }
  return operations[0]!;
}

function resolveVariables(
  operation: OperationDefinitionNode,
  provided: Record<string, unknown>,
): Variables {
  const variables: Variables = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    let value = provided[name];
    if (value === undefined && definition.defaultValue) {
      value = definition.defaultValue.kind === Kind.NULL ? null : undefined;
      if (definition.defaultValue.kind !== Kind.NULL) {
        // Defaults are literals: evaluated without variables, numbers as JSON numbers.
        value = toPlainJson(valueFromAst(definition.defaultValue, {}));
      }
    }
    if ((value === undefined || value === null) && definition.type.kind === Kind.NON_NULL_TYPE) {
      throw new HasuraError(
        'validation-failed',
        `expecting a value for non-nullable variable: "${name}"`,
        '$',
      );
    }
    if (value !== undefined) variables[name] = value;
  }
  return variables;
}

function planRootField(ctx: PlanContext, root: RootField, field: CollectedField): RootPlan {
  if (root.kind === 'action')
    return { alias: field.alias, kind: 'action', plan: planAction(ctx, field, root.action) };
  const entry = root.table;
  const source = {
    table: entry,
    permission: entry.select?.filter ?? TRUE,
    permissionLimit: entry.select?.limit,
  };
  switch (root.kind) {
    case 'select': {
      const args = parseSelectArgs(
        ctx,
        entry,
        fieldArguments(field, SELECT_ARGUMENTS, ctx),
        field.path,
      );
      return {
        alias: field.alias,
        kind: 'select',
        source,
        args,
        fields: parseTableSelection(ctx, entry, field),
      };
    }
    case 'select_aggregate': {
      const args = parseSelectArgs(
        ctx,
        entry,
        fieldArguments(field, SELECT_ARGUMENTS, ctx),
        field.path,
        { aggregate: true },
      );
      return {
        alias: field.alias,
        kind: 'select_aggregate',
        source,
        args,
        aggregate: parseAggregateSelection(ctx, entry, field),
      };
    }
    case 'select_by_pk': {
      const pk = (entry.table.info.primaryKey ?? []).map((name) =>
        entry.table.columnsBySql.get(name)!,
      );
      const args = fieldArguments(
        field,
        pk.map((column) => column.name),
        ctx,
      );
      const items: BoolExp[] = pk.map((column) => {
        if (args[column.name] === undefined || args[column.name] === null) {
          throw new HasuraError(
            'validation-failed',
            `missing required field '${column.name}'`,
            `${field.path}.args`,
          );
        }
        const path = `${field.path}.args.${column.name}`;
        return {
          kind: 'compare',
          column: column.column,
          op: '_eq',
          value: literalFrom(ctx.bindings, args[column.name], path, (raw) =>
            coerceColumnValue(raw, column.column, path),
          ),
        };
      });
      const where: BoolExp = items.length === 1 ? items[0]! : { kind: 'and', items };
      return {
        alias: field.alias,
        kind: 'select_by_pk',
        source,
        where,
        fields: parseTableSelection(ctx, entry, field),
      };
    }
    default:
      return planMutation(ctx, root.kind, entry, field);
  }
}

/** A request checked up to planning: its operation, its fragments and its variables. */
export interface PreparedOperation {
  type: OperationType;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Variables;
}

type PlanBase = Omit<PlanContext, 'variables' | 'fragments' | 'bindings'>;

/**
 * Everything about a request that does not depend on the schema: the allow-list, the
 * operation chosen, its directives and size limits, its variables. Throws a HasuraError.
 */
export function prepareOperation(
  request: GraphQLRequest,
  base: Pick<PlanBase, 'session' | 'gate' | 'limits'>,
  document: DocumentNode = parseDocument(request.query),
): PreparedOperation {
  base.gate?.checkDocument(document, base.session);
  const operation = chooseOperation(document, request.operationName);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition);
  }
  for (const directive of operation.directives ?? []) {
    const name = directive.name.value;
    if (name === '_multiple_top_level_fields' && operationType(operation) === 'subscription')
      continue;
    if (name === 'cached') continue;
    if (name === 'skip' || name === 'include') {
      throw new HasuraError(
        'validation-failed',
        `directive "${name}" is not allowed on a ${operation.operation}`,
        '$',
      );
    }
    throw new HasuraError(
      'validation-failed',
      `directive "${name}" is not defined in the schema`,
      '$',
    );
  }
  const limits = base.limits ?? DEFAULT_LIMITS;
  checkOperationLimitsOnce(operation, fragments, limits);
  const variables = resolveVariables(operation, request.variables ?? {});
  checkVariableDepth(variables, limits);
  return { type: operationType(operation), document, operation, fragments, variables };
}

/**
 * Plans a prepared request for the session's role, or throws a HasuraError. With
 * `recordBindings`, a query's plan says which variables reached it as parameters only, so that
 * its compiled statement can be kept and re-bound (execute/query-cache.ts).
 */
export function planPrepared(
  prepared: PreparedOperation,
  base: PlanBase & { recordBindings?: boolean },
): OperationPlan {
  const { type, document, operation, fragments, variables } = prepared;
  const limits = base.limits ?? DEFAULT_LIMITS;
  const { recordBindings, ...context } = base;
  const bindings =
    recordBindings === true && type === 'query' ? new VariableBindings(variables) : undefined;
  const ctx: PlanContext = {
    ...context,
    variables: bindings?.variables ?? variables,
    fragments,
    bindings,
  };
  const rootFields =
    type === 'query'
      ? ctx.schema.query
      : type === 'mutation'
        ? ctx.schema.mutation
        : ctx.schema.subscription;
  if (type === 'mutation' && rootFields.size === 0)
    throw new HasuraError('validation-failed', 'no mutations exist', '$');
  const rootTypeName = ROOT_TYPE_NAMES[type];
  const roots = collectFields(operation.selectionSet, rootTypeName, ctx, '$').map(
    (field): RootPlan => {
      if (field.name === '__typename')
        return { alias: field.alias, kind: 'typename', value: rootTypeName };
      if (field.name === '__schema' || field.name === '__type') {
        ctx.gate?.checkIntrospection(ctx.session);
        return { alias: field.alias, kind: 'introspection' };
      }
      const root = rootFields.get(field.name);
      if (!root)
        throw new HasuraError(
          'validation-failed',
          `field '${field.name}' not found in type: '${rootTypeName}'`,
          field.path,
        );
      return planRootField(ctx, root, field);
    },
  );
  checkEstimatedRows(roots, limits);
  return { type, roots, document, operation, variables, bindings };
}

/** Turns a request into a plan for the session's role, or throws a HasuraError. */
export function planOperation(
  request: GraphQLRequest,
  base: PlanBase,
  document: DocumentNode = parseDocument(request.query),
): OperationPlan {
  return planPrepared(prepareOperation(request, base, document), base);
}
