import type { ColumnInfo } from '../catalog/model.ts';
import { HasuraError } from '../errors.ts';
import {
  TRUE,
  type BoolExp,
  type Presets,
  type RoleTable,
  type ValueRef,
} from '../schema/model.ts';
import type { RootFieldKind } from '../schema/names.ts';
import { isNumericType } from '../schema/scalars.ts';

import { parseBoolExp } from './bool-exp.ts';
import { requestBoolExpContext, type PlanContext } from './context.ts';
import type { ConflictClause, MutationPlan } from './ir.ts';
import { mutationOutput } from './mutation-output.ts';
import { fieldArguments, type CollectedField } from './selection.ts';
import { coerceColumnValue, NumberLiteral } from './values.ts';

const JSON_OPERATORS = [
  '_append',
  '_prepend',
  '_delete_key',
  '_delete_elem',
  '_delete_at_path',
] as const;

function presetValues(presets: Presets): Map<string, ValueRef> {
  const values = new Map<string, ValueRef>();
  for (const [column, preset] of presets) {
    values.set(
      column,
      'session' in preset
        ? { kind: 'session', name: preset.session }
        : { kind: 'literal', value: preset.literal },
    );
  }
  return values;
}

/** Parses an object of column values (`objects[i]`, `_set`, `_inc`) against allowed columns. */
function columnValues(
  entry: RoleTable,
  value: unknown,
  allowed: Set<string>,
  inputType: string,
  path: string,
  check: (column: ColumnInfo, path: string) => void = () => {},
): Map<string, ValueRef> {
  const result = new Map<string, ValueRef>();
  if (value === null || value === undefined) return result;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new HasuraError(
      'validation-failed',
      `expected an object for type '${inputType}', but found ${Array.isArray(value) ? 'a list' : typeof value}`,
      path,
    );
  }
  for (const [name, item] of Object.entries(value)) {
    const field = entry.table.columns.get(name);
    const itemPath = `${path}.${name}`;
    if (!field || !allowed.has(field.column.name)) {
      throw new HasuraError(
        'validation-failed',
        `field '${name}' not found in type: '${inputType}'`,
        itemPath,
      );
    }
    check(field.column, itemPath);
    if (item === undefined) continue;
    if (
      (field.column.typeName === 'int4' || field.column.typeName === 'int2') &&
      item instanceof NumberLiteral
    ) {
      const number = Number(item.text);
      if (!Number.isInteger(number) || Math.abs(number) > 2147483647) {
        throw new HasuraError(
          'parse-failed',
          `The value ${number.toExponential().replace('e+', 'e')} lies outside the bounds or is not an integer. Maybe it is a float, or is there integer overflow?`,
          itemPath,
        );
      }
    }
    result.set(field.column.name, {
      kind: 'literal',
      value: coerceColumnValue(item, field.column, itemPath),
    });
  }
  return result;
}

function writableColumns(entry: RoleTable, permitted: Set<string>, presets: Presets): Set<string> {
  return new Set(
    [...permitted].filter(
      (name) => !presets.has(name) && !entry.table.columnsBySql.get(name)!.column.isGenerated,
    ),
  );
}

function pkWhere(entry: RoleTable, values: Record<string, unknown>, path: string): BoolExp {
  const items: BoolExp[] = [];
  for (const name of entry.table.info.primaryKey ?? []) {
    const column = entry.table.columnsBySql.get(name)!;
    if (values[column.name] === undefined || values[column.name] === null) {
      throw new HasuraError('validation-failed', `missing required field '${column.name}'`, path);
    }
    items.push({
      kind: 'compare',
      column: column.column,
      op: '_eq',
      value: {
        kind: 'literal',
        value: coerceColumnValue(values[column.name], column.column, `${path}.${column.name}`),
      },
    });
  }
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

function conflictClause(
  ctx: PlanContext,
  entry: RoleTable,
  value: unknown,
  path: string,
): ConflictClause | undefined {
  if (value === null || value === undefined) return undefined;
  const spec = value as { constraint?: unknown; update_columns?: unknown; where?: unknown };
  const constraint = entry.table.info.uniqueConstraints.find(
    (candidate) => candidate.name === spec.constraint,
  );
  if (!constraint) {
    throw new HasuraError(
      'validation-failed',
      `expected one of the values ${entry.table.info.uniqueConstraints.map((c) => c.name).join(', ')} for type '${entry.table.typeName}_constraint', but found ${JSON.stringify(spec.constraint)}`,
      `${path}.constraint`,
    );
  }
  const names =
    spec.update_columns === undefined
      ? []
      : Array.isArray(spec.update_columns)
        ? spec.update_columns
        : [spec.update_columns];
  const updateColumns = names.map((name) => {
    const field = typeof name === 'string' ? entry.table.columns.get(name) : undefined;
    if (!field || !entry.update?.columns.has(field.column.name)) {
      throw new HasuraError(
        'validation-failed',
        `expected one of the values ${[...(entry.update?.columns ?? [])].join(', ')} for type '${entry.table.typeName}_update_column', but found ${JSON.stringify(name)}`,
        path,
      );
    }
    return field.column;
  });
  const where = parseBoolExp(entry.table, spec.where, requestBoolExpContext(ctx), `${path}.where`);
  return {
    constraint: constraint.name,
    // A column named twice is set once: twice was "multiple assignments to same column", a 500
    // (issue 11).
    updateColumns: updateColumns.filter(
      (column, index) => updateColumns.findIndex((other) => other.name === column.name) === index,
    ),
    where,
    presets: entry.update ? presetValues(entry.update.presets) : new Map<string, ValueRef>(),
  };
}

function planInsert(
  ctx: PlanContext,
  entry: RoleTable,
  field: CollectedField,
  one: boolean,
): MutationPlan {
  const permission = entry.insert!;
  const args = fieldArguments(
    field,
    one ? ['object', 'on_conflict'] : ['objects', 'on_conflict'],
    ctx,
  );
  const raw = one
    ? [args['object']]
    : args['objects'] === undefined
      ? undefined
      : Array.isArray(args['objects'])
        ? args['objects']
        : [args['objects']];
  if (raw === undefined || raw.some((item) => item === undefined || item === null)) {
    throw new HasuraError(
      'validation-failed',
      `missing required field '${one ? 'object' : 'objects'}'`,
      `${field.path}.args`,
    );
  }
  const writable = writableColumns(entry, permission.columns, permission.presets);
  const inputType = `${entry.table.typeName}_insert_input`;
  const rows = raw.map((object, i) => {
    const values = columnValues(
      entry,
      object,
      writable,
      inputType,
      one ? `${field.path}.args.object` : `${field.path}.args.objects[${i}]`,
    );
    for (const [column, preset] of presetValues(permission.presets)) values.set(column, preset);
    return values;
  });
  const columns = entry.table.info.columns.filter((column) =>
    rows.some((row) => row.has(column.name)),
  );
  const onConflict = conflictClause(
    ctx,
    entry,
    args['on_conflict'],
    `${field.path}.args.on_conflict`,
  );
  return {
    alias: field.alias,
    kind: 'insert',
    table: entry,
    rows,
    columns,
    check: permission.check,
    onConflict: onConflict && {
      ...onConflict,
      where: andAll([onConflict.where, entry.update?.filter ?? TRUE]),
    },
    output: mutationOutput(ctx, entry, field, one),
    returningPermission: entry.select?.filter,
  };
}

const andAll = (items: BoolExp[]): BoolExp => {
  const kept = items.filter((item) => item.kind !== 'true');
  return kept.length === 0 ? TRUE : kept.length === 1 ? kept[0]! : { kind: 'and', items: kept };
};

function planUpdate(
  ctx: PlanContext,
  entry: RoleTable,
  field: CollectedField,
  byPk: boolean,
): MutationPlan {
  const permission = entry.update!;
  const args = fieldArguments(
    field,
    [byPk ? 'pk_columns' : 'where', '_set', '_inc', ...JSON_OPERATORS],
    ctx,
  );
  const writable = writableColumns(entry, permission.columns, permission.presets);
  const set = columnValues(
    entry,
    args['_set'],
    writable,
    `${entry.table.typeName}_set_input`,
    `${field.path}.args._set`,
  );
  const inc = columnValues(
    entry,
    args['_inc'],
    writable,
    `${entry.table.typeName}_inc_input`,
    `${field.path}.args._inc`,
    (column, path) => {
      if (!isNumericType(column.typeName))
        throw new HasuraError(
          'validation-failed',
          `field '${column.name}' not found in type: '${entry.table.typeName}_inc_input'`,
          path,
        );
    },
  );
  const jsonOps: Extract<MutationPlan, { kind: 'update' }>['jsonOps'] = [];
  for (const op of JSON_OPERATORS) {
    const value = args[op];
    if (value === null || value === undefined) continue;
    for (const [name, operand] of Object.entries(value as Record<string, unknown>)) {
      const column = entry.table.columns.get(name)?.column;
      if (!column || column.typeName !== 'jsonb' || !writable.has(column.name)) {
        throw new HasuraError(
          'validation-failed',
          `field '${name}' not found in type: '${entry.table.typeName}${op}_input'`,
          `${field.path}.args.${op}.${name}`,
        );
      }
      const literal =
        op === '_append' || op === '_prepend'
          ? coerceColumnValue(operand, column, `${field.path}.args.${op}.${name}`)
          : operand;
      jsonOps.push({ column, op, value: { kind: 'literal', value: literal } });
    }
  }
  const used = [...set.keys(), ...inc.keys(), ...jsonOps.map((op) => op.column.name)];
  const duplicated = used.filter((name, i) => used.indexOf(name) !== i);
  if (duplicated.length > 0) {
    throw new HasuraError(
      'validation-failed',
      `Column found in multiple operators: [${[...new Set(duplicated)].map((name) => `'${name}'`).join(', ')}].`,
      `${field.path}.args`,
    );
  }
  for (const [column, preset] of presetValues(permission.presets)) set.set(column, preset);
  const where = byPk
    ? pkWhere(
        entry,
        (args['pk_columns'] ?? {}) as Record<string, unknown>,
        `${field.path}.args.pk_columns`,
      )
    : parseBoolExp(
        entry.table,
        args['where'],
        requestBoolExpContext(ctx),
        `${field.path}.args.where`,
      );
  if (!byPk && args['where'] === undefined)
    throw new HasuraError(
      'validation-failed',
      `missing required field 'where'`,
      `${field.path}.args`,
    );
  return {
    alias: field.alias,
    kind: 'update',
    table: entry,
    where: andAll([where, permission.filter]),
    set,
    inc,
    jsonOps,
    check: permission.check,
    output: mutationOutput(ctx, entry, field, byPk),
    returningPermission: entry.select?.filter,
  };
}

function planDelete(
  ctx: PlanContext,
  entry: RoleTable,
  field: CollectedField,
  byPk: boolean,
): MutationPlan {
  const permission = entry.delete!;
  const pkNames = (entry.table.info.primaryKey ?? []).map(
    (name) => entry.table.columnsBySql.get(name)!.name,
  );
  const args = fieldArguments(field, byPk ? pkNames : ['where'], ctx);
  if (!byPk && args['where'] === undefined)
    throw new HasuraError(
      'validation-failed',
      `missing required field 'where'`,
      `${field.path}.args`,
    );
  const where = byPk
    ? pkWhere(entry, args, `${field.path}.args`)
    : parseBoolExp(
        entry.table,
        args['where'],
        requestBoolExpContext(ctx),
        `${field.path}.args.where`,
      );
  return {
    alias: field.alias,
    kind: 'delete',
    table: entry,
    where: andAll([where, permission.filter]),
    output: mutationOutput(ctx, entry, field, byPk),
    returningPermission: entry.select?.filter,
  };
}

export function planMutation(
  ctx: PlanContext,
  kind: RootFieldKind,
  entry: RoleTable,
  field: CollectedField,
): MutationPlan {
  switch (kind) {
    case 'insert':
    case 'insert_one':
      return planInsert(ctx, entry, field, kind === 'insert_one');
    case 'update':
    case 'update_by_pk':
      return planUpdate(ctx, entry, field, kind === 'update_by_pk');
    case 'delete':
    case 'delete_by_pk':
      return planDelete(ctx, entry, field, kind === 'delete_by_pk');
    default:
      throw new HasuraError('unexpected', `${kind} is not a mutation`, field.path);
  }
}
