import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';

/*
 * A role's tables as its introspected schema lists them: what the generator may use, and
 * nothing else. Everything is read from the schema the engine serves to that role (types named
 * as Hasura names them: `<t>_bool_exp`, `<t>_order_by`, `<t>_select_column`, `<t>_aggregate`).
 */

export interface ScalarField {
  name: string;
  /** The GraphQL scalar (String, uuid, numeric, ...). */
  scalar: string;
}

export interface RelationField {
  name: string;
  target: string;
}

export interface AggregateFunctionFields {
  /** avg, max, min, sum, stddev, ... and the columns each one takes. */
  fn: string;
  columns: string[];
}

export interface TableModel {
  name: string;
  scalars: ScalarField[];
  objectRels: RelationField[];
  arrayRels: RelationField[];
  /** `<rel>_aggregate` selection fields. */
  aggregateRels: RelationField[];
  /** Columns of `<t>_select_column` (distinct_on, count(columns:)). */
  selectColumns: string[];
  /** `<t>_bool_exp` fields: columns with their comparison type, relationships, others. */
  boolColumns: Array<{ name: string; comparison: string }>;
  boolRels: RelationField[];
  boolOther: string[];
  /** `<t>_order_by` fields: plain columns, object relationships, `<rel>_aggregate`. */
  orderColumns: string[];
  orderRels: RelationField[];
  orderAggregates: Array<{ name: string; target: string }>;
  /** `<t>_aggregate_fields` functions with their columns (count apart). */
  aggregateFunctions: AggregateFunctionFields[];
  /** `<t>_aggregate_order_by` functions with their columns. */
  aggregateOrderFunctions: AggregateFunctionFields[];
}

export interface RootFields {
  select: Map<string, string>;
  aggregate: Map<string, string>;
  /** by_pk field → table, with the primary key arguments. */
  byPk: Map<string, { table: string; args: string[] }>;
}

export interface RoleModel {
  schema: GraphQLSchema;
  tables: Map<string, TableModel>;
  query: RootFields;
  subscription: RootFields;
  /** Comparison type → operator → the operator's input type (printed). */
  comparisons: Map<string, Map<string, string>>;
  /** The printed type of each argument of each field (`transactions.where` → `transactions_bool_exp`). */
  argTypes: Map<string, string>;
}

function inputFields(schema: GraphQLSchema, name: string): GraphQLInputObjectType | undefined {
  const type = schema.getType(name);
  return type && isInputObjectType(type) ? type : undefined;
}

const isTableType = (schema: GraphQLSchema, type: GraphQLObjectType) =>
  inputFields(schema, `${type.name}_bool_exp`) !== undefined &&
  !type.name.startsWith('__') &&
  type.name !== 'query_root' &&
  type.name !== 'subscription_root';

function aggregateFunctions(
  schema: GraphQLSchema,
  typeName: string,
  input: boolean,
): AggregateFunctionFields[] {
  const type = schema.getType(typeName);
  if (!type) return [];
  const fields = isObjectType(type)
    ? type.getFields()
    : isInputObjectType(type)
      ? type.getFields()
      : undefined;
  if (!fields) return [];
  const result: AggregateFunctionFields[] = [];
  for (const [fn, field] of Object.entries(fields) as Array<[string, { type: GraphQLType }]>) {
    if (fn === 'count' || fn === '__typename') continue;
    const inner = getNamedType(field.type);
    const innerFields =
      input && isInputObjectType(inner)
        ? inner.getFields()
        : !input && isObjectType(inner)
          ? inner.getFields()
          : undefined;
    if (innerFields) result.push({ fn, columns: Object.keys(innerFields) });
  }
  return result;
}

function tableModel(schema: GraphQLSchema, type: GraphQLObjectType): TableModel {
  const model: TableModel = {
    name: type.name,
    scalars: [],
    objectRels: [],
    arrayRels: [],
    aggregateRels: [],
    selectColumns: [],
    boolColumns: [],
    boolRels: [],
    boolOther: [],
    orderColumns: [],
    orderRels: [],
    orderAggregates: [],
    aggregateFunctions: aggregateFunctions(schema, `${type.name}_aggregate_fields`, false),
    aggregateOrderFunctions: aggregateFunctions(schema, `${type.name}_aggregate_order_by`, true),
  };
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    // Fields that need arguments (none today) are left out rather than guessed.
    const required = field.args.some((arg) => isNonNullType(arg.type));
    if (required) continue;
    if (isScalarType(named) || isEnumType(named)) {
      model.scalars.push({ name: field.name, scalar: named.name });
    } else if (isObjectType(named) && isTableType(schema, named)) {
      const list = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
      (list ? model.arrayRels : model.objectRels).push({ name: field.name, target: named.name });
    } else if (isObjectType(named) && named.name.endsWith('_aggregate')) {
      model.aggregateRels.push({
        name: field.name,
        target: named.name.slice(0, -'_aggregate'.length),
      });
    }
  }
  const selectColumn = schema.getType(`${type.name}_select_column`);
  if (selectColumn && isEnumType(selectColumn))
    model.selectColumns = selectColumn.getValues().map((value) => value.name);
  for (const field of Object.values(inputFields(schema, `${type.name}_bool_exp`)!.getFields())) {
    const named = getNamedType(field.type);
    if (field.name === '_and' || field.name === '_or' || field.name === '_not') continue;
    if (named.name.endsWith('_comparison_exp'))
      model.boolColumns.push({ name: field.name, comparison: named.name });
    else if (named.name.endsWith('_bool_exp'))
      model.boolRels.push({ name: field.name, target: named.name.slice(0, -'_bool_exp'.length) });
    else model.boolOther.push(field.name);
  }
  for (const field of Object.values(
    inputFields(schema, `${type.name}_order_by`)?.getFields() ?? {},
  )) {
    const named = getNamedType(field.type);
    if (named.name === 'order_by') model.orderColumns.push(field.name);
    else if (named.name.endsWith('_aggregate_order_by'))
      model.orderAggregates.push({
        name: field.name,
        target: named.name.slice(0, -'_aggregate_order_by'.length),
      });
    else if (named.name.endsWith('_order_by'))
      model.orderRels.push({ name: field.name, target: named.name.slice(0, -'_order_by'.length) });
  }
  return model;
}

function rootFields(
  schema: GraphQLSchema,
  root: GraphQLObjectType | null | undefined,
  tables: Map<string, TableModel>,
  argTypes: Map<string, string>,
): RootFields {
  const result: RootFields = { select: new Map(), aggregate: new Map(), byPk: new Map() };
  for (const field of Object.values(root?.getFields() ?? {}) as Array<
    GraphQLField<unknown, unknown>
  >) {
    for (const arg of field.args)
      argTypes.set(`${root!.name}.${field.name}.${arg.name}`, String(arg.type));
    const named = getNamedType(field.type);
    if (!isObjectType(named)) continue;
    if (tables.has(named.name)) {
      const list = isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
      if (list) result.select.set(field.name, named.name);
      else
        result.byPk.set(field.name, {
          table: named.name,
          args: field.args.map((arg) => arg.name),
        });
    } else if (named.name.endsWith('_aggregate')) {
      const table = named.name.slice(0, -'_aggregate'.length);
      if (tables.has(table)) result.aggregate.set(field.name, table);
    }
  }
  return result;
}

/** The role's tables, root fields and comparison operators, from its introspected schema. */
export function roleModel(schema: GraphQLSchema): RoleModel {
  const tables = new Map<string, TableModel>();
  const argTypes = new Map<string, string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type) && isTableType(schema, type)) {
      tables.set(type.name, tableModel(schema, type));
      for (const field of Object.values(type.getFields()))
        for (const arg of field.args)
          argTypes.set(`${type.name}.${field.name}.${arg.name}`, String(arg.type));
    }
  }
  const comparisons = new Map<string, Map<string, string>>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (isInputObjectType(type) && type.name.endsWith('_comparison_exp')) {
      comparisons.set(
        type.name,
        new Map(Object.values(type.getFields()).map((field) => [field.name, String(field.type)])),
      );
    }
  }
  return {
    schema,
    tables,
    query: rootFields(schema, schema.getQueryType(), tables, argTypes),
    subscription: rootFields(schema, schema.getSubscriptionType(), tables, argTypes),
    comparisons,
    argTypes,
  };
}
