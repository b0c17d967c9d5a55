import { Kind, type DirectiveNode, type FieldNode, type SelectionSetNode } from 'graphql';

import { HasuraError } from '../errors.ts';

import type { PlanContext } from './context.ts';
import { valueFromAst } from './values.ts';

/** A field of a selection set after fragments and @skip/@include are applied. */
export interface CollectedField {
  /** The response key: the alias, or the field name. */
  alias: string;
  name: string;
  node: FieldNode;
  /** JSON path of the field in the request, e.g. `$.selectionSet.author.selectionSet.id`. */
  path: string;
  /** Fragments being expanded around this field (cycle detection continues inside it). */
  fragmentStack: string[];
}

const KNOWN_DIRECTIVES = new Set(['skip', 'include']);

/** Whether @skip / @include keep a selection; Hasura's errors for misuse. */
function isIncluded(
  directives: readonly DirectiveNode[] | undefined,
  ctx: PlanContext,
  path: string,
): boolean {
  if (!directives || directives.length === 0) return true;
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const directive of directives) {
    const name = directive.name.value;
    if (name === '_multiple_top_level_fields' || name === 'cached') continue;
    if (!KNOWN_DIRECTIVES.has(name)) {
      throw new HasuraError(
        'validation-failed',
        `directive "${name}" is not defined in the schema`,
        path,
      );
    }
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  if (repeated.size > 0) {
    throw new HasuraError(
      'validation-failed',
      `the following directives are used more than once: ${[...repeated].join(', ')}`,
      path,
    );
  }
  for (const directive of directives) {
    const name = directive.name.value;
    if (!KNOWN_DIRECTIVES.has(name)) continue;
    const argument = directive.arguments?.find((arg) => arg.name.value === 'if');
    if (!argument)
      throw new HasuraError(
        'validation-failed',
        `missing required field 'if'`,
        `${path}.directives.${name}`,
      );
    const value = valueFromAst(argument.value, ctx.variables);
    if (typeof value !== 'boolean') {
      throw new HasuraError(
        'validation-failed',
        `expected a boolean for type 'Boolean', but found ${value === null ? 'null' : typeof value}`,
        `${path}.directives.${name}.args.if`,
      );
    }
    if (name === 'skip' && value) return false;
    if (name === 'include' && !value) return false;
  }
  return true;
}

/**
 * Flattens a selection set on `typeName`: expands fragment spreads and inline fragments,
 * drops what @skip/@include exclude, and merges fields that share a response key.
 */
export function collectFields(
  selectionSet: SelectionSetNode,
  typeName: string,
  ctx: PlanContext,
  path: string,
  fragmentStack: string[] = [],
): CollectedField[] {
  const fields = new Map<string, CollectedField>();
  const visit = (set: SelectionSetNode, setPath: string, stack: string[]) => {
    for (const selection of set.selections) {
      switch (selection.kind) {
        case Kind.FIELD: {
          const name = selection.name.value;
          const fieldPath = `${setPath}.selectionSet.${name}`;
          // Hasura reports directive errors on the selection set that holds the field.
          if (!isIncluded(selection.directives, ctx, `${setPath}.selectionSet`)) break;
          const alias = selection.alias?.value ?? name;
          const existing = fields.get(alias);
          if (existing && existing.node.selectionSet && selection.selectionSet) {
            // Same response key twice: one field whose selection is both sets together.
            existing.node = {
              ...existing.node,
              selectionSet: {
                ...existing.node.selectionSet,
                selections: [
                  ...existing.node.selectionSet.selections,
                  ...selection.selectionSet.selections,
                ],
              },
            };
          } else if (!existing) {
            fields.set(alias, {
              alias,
              name,
              node: selection,
              path: fieldPath,
              fragmentStack: stack,
            });
          }
          break;
        }
        case Kind.FRAGMENT_SPREAD: {
          const name = selection.name.value;
          if (!isIncluded(selection.directives, ctx, setPath)) break;
          if (stack.includes(name)) {
            const cycle = stack.slice(stack.indexOf(name));
            const names =
              cycle.length === 1
                ? cycle[0]!
                : `${cycle.slice(0, -1).join(', ')} and ${cycle.at(-1)!}`;
            throw new HasuraError(
              'validation-failed',
              `the fragment definition(s) ${names} form a cycle`,
              `${setPath}.selectionSet`,
            );
          }
          const fragment = ctx.fragments.get(name);
          if (!fragment)
            throw new HasuraError(
              'validation-failed',
              `reference to undefined fragment "${name}"`,
              setPath,
            );
          const condition = fragment.typeCondition.name.value;
          if (condition !== typeName) {
            throw new HasuraError(
              'validation-failed',
              `fragment "${name}" is defined on "${condition}" but used on "${typeName}"`,
              setPath,
            );
          }
          visit(fragment.selectionSet, `${setPath}.selectionSet.${name}`, [...stack, name]);
          break;
        }
        case Kind.INLINE_FRAGMENT: {
          if (!isIncluded(selection.directives, ctx, setPath)) break;
          const condition = selection.typeCondition?.name.value;
          // As for named fragments: the schema's types are objects only, so a fragment on
          // another type can never apply. Refused, not skipped unread (the permission oracle:
          // nothing outside the role's schema is accepted, at any depth).
          if (condition && condition !== typeName) {
            throw new HasuraError(
              'validation-failed',
              `inline fragment on "${condition}" cannot be used on "${typeName}"`,
              setPath,
            );
          }
          visit(selection.selectionSet, setPath, stack);
          break;
        }
      }
    }
  };
  visit(selectionSet, path, fragmentStack);
  return [...fields.values()];
}

/** The arguments of a field as JS values, refusing any not in `allowed`. */
export function fieldArguments(
  field: CollectedField,
  allowed: readonly string[],
  ctx: PlanContext,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const argument of field.node.arguments ?? []) {
    const name = argument.name.value;
    if (!allowed.includes(name)) {
      throw new HasuraError(
        'validation-failed',
        `'${field.name}' has no argument named '${name}'`,
        `${field.path}.args.${name}`,
      );
    }
    const value = valueFromAst(
      argument.value,
      ctx.variables,
      ctx.bindings && { bindings: ctx.bindings, path: `${field.path}.args.${name}` },
    );
    if (value !== undefined) result[name] = value;
  }
  return result;
}

/** Refuses a selection set on a leaf, and requires one on an object. */
export function expectLeaf(field: CollectedField): void {
  if (field.node.selectionSet) {
    throw new HasuraError(
      'validation-failed',
      `unexpected subselection set for non-object field`,
      field.path,
    );
  }
}

export function expectSelectionSet(field: CollectedField, typeName: string): SelectionSetNode {
  if (!field.node.selectionSet) {
    throw new HasuraError(
      'validation-failed',
      `missing selection set for "${typeName}"`,
      field.path,
    );
  }
  return field.node.selectionSet;
}
