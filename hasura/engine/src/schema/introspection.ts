import {
  execute,
  Kind,
  OperationTypeNode,
  validate,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

import { HasuraError } from '../errors.ts';
import type { OperationPlan } from '../plan/operation.ts';

import { buildGraphQLSchema } from './graphql-schema.ts';
import type { RoleSchema } from './model.ts';

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/**
 * Keeps only the `__schema` / `__type` fields of a root selection set. Fragment spreads
 * become inline fragments (their type condition names the original root type, and this
 * document always runs as a query), and @skip / @include stay for graphql-js to apply.
 */
function introspectionSelections(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  expanding: Set<string>,
): SelectionNode[] {
  return selectionSet.selections.flatMap((selection): SelectionNode[] => {
    switch (selection.kind) {
      case Kind.FIELD:
        return INTROSPECTION_ROOTS.has(selection.name.value) ? [selection] : [];
      case Kind.INLINE_FRAGMENT: {
        const selections = introspectionSelections(selection.selectionSet, fragments, expanding);
        if (selections.length === 0) return [];
        return [
          {
            ...selection,
            typeCondition: undefined,
            selectionSet: { kind: Kind.SELECTION_SET, selections },
          },
        ];
      }
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || expanding.has(name)) return [];
        const selections = introspectionSelections(
          fragment.selectionSet,
          fragments,
          new Set([...expanding, name]),
        );
        if (selections.length === 0) return [];
        return [
          {
            kind: Kind.INLINE_FRAGMENT,
            directives: selection.directives ?? [],
            selectionSet: { kind: Kind.SELECTION_SET, selections },
          },
        ];
      }
    }
  });
}

/** A query with only the operation's introspection root fields, the fragments and variables they use. */
export function introspectionDocument(plan: OperationPlan): DocumentNode {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of plan.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition);
  }
  const selectionSet: SelectionSetNode = {
    kind: Kind.SELECTION_SET,
    selections: introspectionSelections(plan.operation.selectionSet, fragments, new Set()),
  };

  // The fragments spread inside the kept fields, transitively, and the variables all of it uses.
  const used = new Map<string, FragmentDefinitionNode>();
  const variables = new Set<string>();
  const collect = (node: SelectionSetNode | FragmentDefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (fragment && !used.has(name)) {
          used.set(name, fragment);
          collect(fragment);
        }
      },
      Variable(variable) {
        variables.add(variable.name.value);
      },
    });
  collect(selectionSet);

  return {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: OperationTypeNode.QUERY,
        ...(plan.operation.name && { name: plan.operation.name }),
        variableDefinitions: (plan.operation.variableDefinitions ?? []).filter((definition) =>
          variables.has(definition.variable.name.value),
        ),
        directives: [],
        selectionSet,
      },
      ...used.values(),
    ],
  };
}

/** graphql-js wording to Hasura's where the two differ in a way clients look at. */
function hasuraMessage(error: GraphQLError): string {
  const unknownField = /^Cannot query field "([^"]+)" on type "([^"]+)"\./.exec(error.message);
  if (unknownField) return `field '${unknownField[1]}' not found in type: '${unknownField[2]}'`;
  return error.message;
}

/** Answers `__schema` / `__type` root fields with graphql-js against the role's schema. */
export async function answerIntrospection(
  schema: RoleSchema,
  plan: OperationPlan,
): Promise<Record<string, unknown>> {
  const graphqlSchema = buildGraphQLSchema(schema);
  const document = introspectionDocument(plan);
  const [invalid] = validate(graphqlSchema, document);
  if (invalid) throw new HasuraError('validation-failed', hasuraMessage(invalid), '$');
  const result = await execute({ schema: graphqlSchema, document, variableValues: plan.variables });
  const [failed] = result.errors ?? [];
  if (failed) throw new HasuraError('validation-failed', hasuraMessage(failed), '$');
  return result.data ?? {};
}
