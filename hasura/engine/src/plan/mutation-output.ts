import { HasuraError } from '../errors.ts';
import type { RoleTable } from '../schema/model.ts';

import type { PlanContext } from './context.ts';
import type { MutationOutput } from './ir.ts';
import { parseTableSelection } from './select.ts';
import { collectFields, expectSelectionSet, type CollectedField } from './selection.ts';

/** What a mutation returns: one row (`_one`, `_by_pk`) or `affected_rows` and `returning`. */
export function mutationOutput(
  ctx: PlanContext,
  entry: RoleTable,
  field: CollectedField,
  one: boolean,
): MutationOutput {
  if (one) return { kind: 'one', fields: parseTableSelection(ctx, entry, field) };
  const typeName = `${entry.table.typeName}_mutation_response`;
  const fields = collectFields(
    expectSelectionSet(field, typeName),
    typeName,
    ctx,
    field.path,
    field.fragmentStack,
  ).map((sub): Extract<MutationOutput, { kind: 'many' }>['fields'][number] => {
    if (sub.name === '__typename') return { alias: sub.alias, kind: 'typename', value: typeName };
    if (sub.name === 'affected_rows') return { alias: sub.alias, kind: 'affected_rows' };
    if (sub.name === 'returning' && entry.select)
      return { alias: sub.alias, kind: 'returning', fields: parseTableSelection(ctx, entry, sub) };
    throw new HasuraError(
      'validation-failed',
      `field '${sub.name}' not found in type: '${typeName}'`,
      sub.path,
    );
  });
  return { kind: 'many', fields };
}
