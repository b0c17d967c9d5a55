import { AGGREGATE_FUNCTIONS, type AggregateFunction } from '../plan/ir.ts';
import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLIncludeDirective,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLSkipDirective,
  GraphQLString,
  Kind,
  lexicographicSortSchema,
  parseType,
  type GraphQLEnumValueConfigMap,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLType,
  type TypeNode,
} from 'graphql';

import { qualifiedKey } from '../catalog/model.ts';
import type { ActionMetadata, CustomTypesMetadata } from '../metadata/model.ts';

import type {
  ColumnField,
  ComputedField,
  Presets,
  RoleSchema,
  RoleTable,
  RootField,
  SchemaModel,
  TableSchema,
} from './model.ts';
import { isComparableType, isJsonType, isNumericType, isTextType, scalarName } from './scalars.ts';

/*
 * The GraphQL schema of one role, shaped and named as the Hasura GraphQL Engine v2 builds it
 * (server/src-lib/Hasura/GraphQL/Schema/*.hs and Backends/Postgres/Instances/Schema.hs), so
 * clients and GraphQL Code Generator work the same against either engine. It offers only
 * what the planner (plan/*.ts) accepts for the role: where Hasura offers more (nested
 * inserts, `_aggregate` boolean expressions, streaming subscriptions, `update_*_many`,
 * `_cast`, async action queries), the field is left out rather than promised and refused.
 * It answers introspection and prints the SDL; requests are still planned by plan/, not
 * validated by graphql-js.
 */

/** Alphabetical, as the printed schema lists them. */
const SORTED_AGGREGATE_FUNCTIONS: readonly AggregateFunction[] = [...AGGREGATE_FUNCTIONS].sort();

const JSONB_OPERATORS = {
  _append: {
    type: 'append',
    description: 'append existing jsonb value of filtered columns with new jsonb value',
  },
  _prepend: {
    type: 'prepend',
    description: 'prepend existing jsonb value of filtered columns with new jsonb value',
  },
  _delete_key: {
    type: 'delete_key',
    description:
      'delete key/value pair or string element. key/value pairs are matched based on their key value',
  },
  _delete_elem: {
    type: 'delete_elem',
    description:
      'delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array',
  },
  _delete_at_path: {
    type: 'delete_at_path',
    description:
      'delete the field or element with specified path (for JSON arrays, negative integers count from the end)',
  },
} as const;
type JsonbOperator = keyof typeof JSONB_OPERATORS;

const TEXT_OPERATORS: Array<[string, string]> = [
  ['_like', 'does the column match the given pattern'],
  ['_nlike', 'does the column NOT match the given pattern'],
  ['_ilike', 'does the column match the given case-insensitive pattern'],
  ['_nilike', 'does the column NOT match the given case-insensitive pattern'],
  ['_similar', 'does the column match the given SQL regular expression'],
  ['_nsimilar', 'does the column NOT match the given SQL regular expression'],
  ['_regex', 'does the column match the given POSIX regular expression, case sensitive'],
  ['_iregex', 'does the column match the given POSIX regular expression, case insensitive'],
  ['_nregex', 'does the column NOT match the given POSIX regular expression, case sensitive'],
  ['_niregex', 'does the column NOT match the given POSIX regular expression, case insensitive'],
];

const BUILT_IN_SCALARS: Record<string, GraphQLScalarType> = {
  Int: GraphQLInt,
  Float: GraphQLFloat,
  String: GraphQLString,
  Boolean: GraphQLBoolean,
  ID: GraphQLID,
};

/** Hasura's `@cached` directive (accepted and ignored by the planner). */
const CACHED_DIRECTIVE = new GraphQLDirective({
  name: 'cached',
  description: 'whether this query should be cached (Hasura Cloud only)',
  locations: [DirectiveLocation.QUERY],
  args: {
    ttl: {
      type: new GraphQLNonNull(GraphQLInt),
      defaultValue: 60,
      description: 'measured in seconds',
    },
    refresh: {
      type: new GraphQLNonNull(GraphQLBoolean),
      defaultValue: false,
      description: 'refresh the cache entry',
    },
  },
});

const NO_QUERIES_DESCRIPTION =
  "There are no queries available to the current role. Either there are no sources or remote schemas configured, or the current role doesn't have the required permissions.";

/** Postgres type names as `format_type` spells them (function arguments), to pg_type names. */
const SQL_TYPE_NAMES: Record<string, string> = {
  integer: 'int4',
  smallint: 'int2',
  bigint: 'int8',
  real: 'float4',
  'double precision': 'float8',
  boolean: 'bool',
  'character varying': 'varchar',
  character: 'bpchar',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time with time zone': 'timetz',
  'time without time zone': 'time',
};

const nonNull = <T extends GraphQLType>(type: T) => new GraphQLNonNull(type);
const listOf = <T extends GraphQLType>(type: T) => new GraphQLList(new GraphQLNonNull(type));

/** How Hasura quotes a table in descriptions: `"name"` in public, `"schema.name"` elsewhere. */
function quotedTable(table: TableSchema): string {
  return `"${plainTable(table)}"`;
}
function plainTable(table: TableSchema): string {
  return table.info.schema === 'public'
    ? table.info.name
    : `${table.info.schema}.${table.info.name}`;
}

function columnDescription(table: TableSchema, column: ColumnField): string | undefined {
  return (
    table.metadata.configuration.column_config[column.column.name]?.comment ??
    column.column.description ??
    undefined
  );
}

/** Columns of `table` in database order, restricted to `allowed` (database names). */
function columnsIn(table: TableSchema, allowed: Set<string>): ColumnField[] {
  return table.info.columns
    .filter((column) => allowed.has(column.name))
    .map((column) => table.columnsBySql.get(column.name)!);
}

/** Columns a mutation may write: permitted, not preset by the permission, not generated. */
function writableColumns(
  table: TableSchema,
  permitted: Set<string>,
  presets: Presets,
): ColumnField[] {
  return columnsIn(table, permitted).filter(
    (field) => !presets.has(field.column.name) && !field.column.isGenerated,
  );
}

const eligibleFor = (fn: AggregateFunction, column: ColumnField) =>
  fn === 'max' || fn === 'min'
    ? isComparableType(column.column.typeName, column.column.isArray)
    : isNumericType(column.column.typeName) && !column.column.isArray;

const comparisonTypeName = (scalar: string) => `${scalar}_comparison_exp`;

type SelectableTable = RoleTable & { select: NonNullable<RoleTable['select']> };

/** A computed field the role may use: a scalar, or rows of a table it may select. */
type VisibleComputedField =
  | { field: ComputedField; scalar: string; target: undefined }
  | { field: ComputedField; scalar: undefined; target: SelectableTable };

class RoleSchemaBuilder {
  private readonly types = new Map<string, GraphQLNamedType>();

  constructor(private readonly role: RoleSchema) {}

  build(): GraphQLSchema {
    const query = this.rootType('query_root', undefined, this.role.query);
    const mutation = this.rootType('mutation_root', 'mutation root', this.role.mutation);
    const subscription = this.rootType('subscription_root', undefined, this.role.subscription);
    const schema = new GraphQLSchema({
      query:
        query ??
        new GraphQLObjectType({
          name: 'query_root',
          fields: {
            no_queries_available: {
              type: nonNull(GraphQLString),
              description: NO_QUERIES_DESCRIPTION,
            },
          },
        }),
      mutation,
      subscription,
      directives: [GraphQLIncludeDirective, GraphQLSkipDirective, CACHED_DIRECTIVE],
    });
    return lexicographicSortSchema(schema);
  }

  /** One named type per name; `make` must defer its fields (thunks), so cycles resolve. */
  private once<T extends GraphQLNamedType>(name: string, make: () => T): T {
    const found = this.types.get(name);
    if (found) return found as T;
    const made = make();
    this.types.set(name, made);
    return made;
  }

  private scalar(name: string): GraphQLScalarType {
    return BUILT_IN_SCALARS[name] ?? this.once(name, () => new GraphQLScalarType({ name }));
  }

  private columnScalar(column: ColumnField): GraphQLScalarType {
    return this.scalar(column.scalar);
  }

  // ---- What the role can see ---------------------------------------------------------------

  /** The role's entry for a table when it may select from it (and there is a field to show). */
  private selectable(key: string): SelectableTable | undefined {
    const entry = this.role.tables.get(key);
    if (!entry?.select) return undefined;
    const hasField = entry.select.columns.size > 0 || this.scalarComputedFields(entry).length > 0;
    return hasField ? (entry as SelectableTable) : undefined;
  }

  private selectColumns(entry: RoleTable): ColumnField[] {
    return entry.select ? columnsIn(entry.table, entry.select.columns) : [];
  }

  private scalarComputedFields(entry: RoleTable): ComputedField[] {
    return [...entry.table.computedFields.values()].filter(
      (field) => 'scalar' in field.returns && entry.select?.computedFields.has(field.name),
    );
  }

  /**
   * Computed fields the role may use (plan/context.ts `canUseComputedField`): scalar ones
   * listed in its select permission, table ones whose table it may select.
   */
  private visibleComputedFields(entry: RoleTable): VisibleComputedField[] {
    if (!entry.select) return [];
    const permitted = entry.select.computedFields;
    return [...entry.table.computedFields.values()].flatMap((field): VisibleComputedField[] => {
      if ('scalar' in field.returns) {
        return permitted.has(field.name)
          ? [{ field, scalar: field.returns.scalar, target: undefined }]
          : [];
      }
      const target = this.selectable(field.returns.table);
      return target ? [{ field, scalar: undefined, target }] : [];
    });
  }

  /** Hasura filters and orders only by computed fields that take no arguments of their own. */
  private argumentFree(computed: ComputedField): boolean {
    return this.computedFieldInputs(computed).length === 0;
  }

  /** Relationships whose target the role may select. */
  private visibleRelationships(entry: RoleTable) {
    return [...entry.table.relationships.values()].flatMap((relationship) => {
      const target = this.selectable(relationship.target);
      return target ? [{ relationship, target }] : [];
    });
  }

  // ---- Root fields -----------------------------------------------------------------------

  private rootType(
    name: string,
    description: string | undefined,
    roots: Map<string, RootField>,
  ): GraphQLObjectType | undefined {
    const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const root of roots.values()) {
      const field =
        root.kind === 'action' ? this.actionField(root.action) : this.tableRootField(root);
      if (field) fields[root.name] = field;
    }
    if (Object.keys(fields).length === 0) return undefined;
    return new GraphQLObjectType({ name, description, fields });
  }

  private tableRootField(
    root: Extract<RootField, { table: RoleTable }>,
  ): GraphQLFieldConfig<unknown, unknown> | undefined {
    const entry = root.table;
    const { table } = entry;
    const name = quotedTable(table);
    const target = this.selectable(table.key);
    switch (root.kind) {
      case 'select':
        return (
          target && {
            type: nonNull(listOf(this.objectType(target))),
            args: this.selectArgs(target),
            description: `fetch data from the table: ${name}`,
          }
        );
      case 'select_aggregate':
        return (
          target && {
            type: nonNull(this.aggregateType(target)),
            args: this.selectArgs(target),
            description: `fetch aggregated fields from the table: ${name}`,
          }
        );
      case 'select_by_pk':
        return (
          target && {
            type: this.objectType(target),
            args: this.primaryKeyArgs(entry),
            description: `fetch data from the table: ${name} using primary key columns`,
          }
        );
      case 'insert':
      case 'insert_one': {
        const input = this.insertInputType(entry);
        if (!input) return undefined;
        const args: GraphQLFieldConfigArgumentMap =
          root.kind === 'insert'
            ? { objects: { type: nonNull(listOf(input)), description: 'the rows to be inserted' } }
            : { object: { type: nonNull(input), description: 'the row to be inserted' } };
        const onConflict = this.onConflictType(entry);
        if (onConflict) args['on_conflict'] = { type: onConflict, description: 'upsert condition' };
        if (root.kind === 'insert')
          return {
            type: this.mutationResponseType(entry),
            args,
            description: `insert data into the table: ${name}`,
          };
        return (
          target && {
            type: this.objectType(target),
            args,
            description: `insert a single row into the table: ${name}`,
          }
        );
      }
      case 'update':
      case 'update_by_pk': {
        const args = this.updateOperatorArgs(entry);
        if (root.kind === 'update') {
          args['where'] = {
            type: nonNull(this.boolExpType(entry)),
            description: 'filter the rows which have to be updated',
          };
          return {
            type: this.mutationResponseType(entry),
            args,
            description: `update data of the table: ${name}`,
          };
        }
        args['pk_columns'] = { type: nonNull(this.primaryKeyInputType(entry)) };
        return (
          target && {
            type: this.objectType(target),
            args,
            description: `update single row of the table: ${name}`,
          }
        );
      }
      case 'delete':
        return {
          type: this.mutationResponseType(entry),
          args: {
            where: {
              type: nonNull(this.boolExpType(entry)),
              description: 'filter the rows which have to be deleted',
            },
          },
          description: `delete data from the table: ${name}`,
        };
      case 'delete_by_pk':
        return (
          target && {
            type: this.objectType(target),
            args: this.primaryKeyArgs(entry),
            description: `delete single row from the table: ${name}`,
          }
        );
    }
  }

  private primaryKeyArgs(entry: RoleTable): GraphQLFieldConfigArgumentMap {
    const args: GraphQLFieldConfigArgumentMap = {};
    for (const field of columnsIn(entry.table, new Set(entry.table.info.primaryKey ?? []))) {
      args[field.name] = {
        type: nonNull(this.columnScalar(field)),
        description: columnDescription(entry.table, field),
      };
    }
    return args;
  }

  private selectArgs(entry: RoleTable): GraphQLFieldConfigArgumentMap {
    const args: GraphQLFieldConfigArgumentMap = {};
    const columns = this.selectColumnEnum(entry);
    if (columns)
      args['distinct_on'] = { type: listOf(columns), description: 'distinct select on columns' };
    args['limit'] = { type: GraphQLInt, description: 'limit the number of rows returned' };
    args['offset'] = {
      type: GraphQLInt,
      description: 'skip the first n rows. Use only with order_by',
    };
    const orderBy = this.orderByType(entry);
    if (orderBy)
      args['order_by'] = {
        type: listOf(orderBy),
        description: 'sort the rows by one or more columns',
      };
    args['where'] = { type: this.boolExpType(entry), description: 'filter the rows returned' };
    return args;
  }

  // ---- Rows ------------------------------------------------------------------------------

  private objectType(entry: RoleTable): GraphQLObjectType {
    const { table } = entry;
    return this.once(
      table.typeName,
      () =>
        new GraphQLObjectType({
          name: table.typeName,
          description:
            table.metadata.configuration.comment ??
            table.info.description ??
            `columns and relationships of ${quotedTable(table)}`,
          fields: () => this.objectFields(entry),
        }),
    );
  }

  private objectFields(entry: RoleTable): GraphQLFieldConfigMap<unknown, unknown> {
    const { table } = entry;
    const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const column of this.selectColumns(entry)) {
      const type = this.columnScalar(column);
      fields[column.name] = {
        type: column.column.nullable ? type : nonNull(type),
        description: columnDescription(table, column),
        ...(isJsonType(column.column.typeName) && {
          args: { path: { type: GraphQLString, description: 'JSON select path' } },
        }),
      };
    }
    for (const { relationship, target } of this.visibleRelationships(entry)) {
      if (relationship.kind === 'object') {
        const type = this.objectType(target);
        fields[relationship.name] = {
          type: relationship.nullable ? type : nonNull(type),
          description: 'An object relationship',
        };
        continue;
      }
      fields[relationship.name] = {
        type: nonNull(listOf(this.objectType(target))),
        args: this.selectArgs(target),
        description: 'An array relationship',
      };
      if (target.select.allowAggregations) {
        fields[`${relationship.name}_aggregate`] = {
          type: nonNull(this.aggregateType(target)),
          args: this.selectArgs(target),
          description: 'An aggregate relationship',
        };
      }
    }
    for (const { field: computed, scalar, target } of this.visibleComputedFields(entry)) {
      const args = this.computedFieldArgs(entry, computed);
      const description =
        table.metadata.computed_fields.find((field) => field.name === computed.name)?.comment ??
        undefined;
      if (scalar !== undefined) {
        fields[computed.name] = {
          type: this.scalar(scalar),
          ...(args && { args: { args } }),
          description,
        };
        continue;
      }
      if (!target) continue;
      fields[computed.name] = {
        type: computed.fn.returnsSet
          ? nonNull(listOf(this.objectType(target)))
          : this.objectType(target),
        args: { ...(args && { args }), ...this.selectArgs(target) },
        description,
      };
    }
    return fields;
  }

  /** The function's own arguments: all but the row and the session argument. */
  private computedFieldInputs(computed: ComputedField): Array<{ name: string; scalar: string }> {
    const { fn } = computed;
    const rowArgument = computed.tableArgument ?? fn.argNames[0];
    return fn.argTypes.flatMap((sqlType, i) => {
      const name = fn.argNames[i];
      if (name === undefined || name === rowArgument || name === computed.sessionArgument)
        return [];
      const bare = sqlType.replace(/^[a-z_][a-z0-9_]*\./, '');
      const array = bare.endsWith('[]');
      const typeName =
        SQL_TYPE_NAMES[array ? bare.slice(0, -2) : bare] ?? (array ? bare.slice(0, -2) : bare);
      return [{ name, scalar: scalarName(array ? `_${typeName}` : typeName) }];
    });
  }

  /** `args: <field>_<table>_args!` when the function takes more than the row and the session. */
  private computedFieldArgs(
    entry: RoleTable,
    computed: ComputedField,
  ): GraphQLFieldConfigArgumentMap[string] | undefined {
    const inputs = this.computedFieldInputs(computed);
    if (inputs.length === 0) return undefined;
    const typeName = `${computed.name}_${entry.table.typeName}_args`;
    const input = this.once(
      typeName,
      () =>
        new GraphQLInputObjectType({
          name: typeName,
          fields: () =>
            Object.fromEntries(inputs.map((arg) => [arg.name, { type: this.scalar(arg.scalar) }])),
        }),
    );
    return {
      type: nonNull(input),
      description: `input parameters for computed field ${JSON.stringify(computed.name)} defined on table ${quotedTable(entry.table)}`,
    };
  }

  private selectColumnEnum(entry: RoleTable): GraphQLEnumType | undefined {
    const columns = this.selectColumns(entry);
    if (columns.length === 0) return undefined;
    const name = `${entry.table.typeName}_select_column`;
    return this.once(
      name,
      () =>
        new GraphQLEnumType({
          name,
          description: `select columns of table ${quotedTable(entry.table)}`,
          values: columnEnumValues(columns),
        }),
    );
  }

  // ---- Aggregates ------------------------------------------------------------------------

  private aggregateType(entry: RoleTable): GraphQLObjectType {
    const name = `${entry.table.typeName}_aggregate`;
    return this.once(
      name,
      () =>
        new GraphQLObjectType({
          name,
          description: `aggregated selection of ${quotedTable(entry.table)}`,
          fields: () => ({
            aggregate: { type: this.aggregateFieldsType(entry) },
            nodes: { type: nonNull(listOf(this.objectType(entry))) },
          }),
        }),
    );
  }

  private aggregateFieldsType(entry: RoleTable): GraphQLObjectType {
    const name = `${entry.table.typeName}_aggregate_fields`;
    return this.once(
      name,
      () =>
        new GraphQLObjectType({
          name,
          description: `aggregate fields of ${quotedTable(entry.table)}`,
          fields: () => {
            const columns = this.selectColumnEnum(entry);
            const fields: GraphQLFieldConfigMap<unknown, unknown> = {
              count: {
                type: nonNull(GraphQLInt),
                args: {
                  ...(columns && { columns: { type: listOf(columns) } }),
                  distinct: { type: GraphQLBoolean },
                },
              },
            };
            for (const fn of SORTED_AGGREGATE_FUNCTIONS) {
              const type = this.aggregateFunctionType(entry, fn);
              if (type) fields[fn] = { type };
            }
            return fields;
          },
        }),
    );
  }

  private aggregateFunctionType(
    entry: RoleTable,
    fn: AggregateFunction,
  ): GraphQLObjectType | undefined {
    const columns = this.selectColumns(entry).filter((column) => eligibleFor(fn, column));
    if (columns.length === 0) return undefined;
    const name = `${entry.table.typeName}_${fn}_fields`;
    const keepsType = fn === 'sum' || fn === 'max' || fn === 'min';
    return this.once(
      name,
      () =>
        new GraphQLObjectType({
          name,
          description: `aggregate ${fn} on columns`,
          fields: () =>
            Object.fromEntries(
              columns.map((column) => [
                column.name,
                {
                  type: keepsType ? this.columnScalar(column) : GraphQLFloat,
                  description: columnDescription(entry.table, column),
                },
              ]),
            ),
        }),
    );
  }

  // ---- Filtering and ordering ------------------------------------------------------------

  private boolExpType(entry: RoleTable): GraphQLInputObjectType {
    const name = `${entry.table.typeName}_bool_exp`;
    const type: GraphQLInputObjectType = this.once(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          description: `Boolean expression to filter rows from the table ${quotedTable(entry.table)}. All fields are combined with a logical 'AND'.`,
          fields: () => {
            const fields: GraphQLInputFieldConfigMap = {
              _and: { type: listOf(type) },
              _not: { type },
              _or: { type: listOf(type) },
            };
            for (const column of this.selectColumns(entry)) {
              fields[column.name] = {
                type: this.comparisonType(column.scalar, column.column.typeName),
                description: columnDescription(entry.table, column),
              };
            }
            for (const { relationship, target } of this.visibleRelationships(entry)) {
              fields[relationship.name] = { type: this.boolExpType(target) };
            }
            for (const { field, scalar, target } of this.visibleComputedFields(entry)) {
              if (!this.argumentFree(field)) continue;
              fields[field.name] = {
                type:
                  scalar !== undefined
                    ? this.comparisonType(scalar, field.fn.returnTypeName)
                    : this.boolExpType(target),
              };
            }
            return fields;
          },
        }),
    );
    return type;
  }

  /** `<scalar>_comparison_exp` with the operators bool-exp.ts accepts for the Postgres type. */
  private comparisonType(graphqlScalar: string, typeName: string): GraphQLInputObjectType {
    const name = comparisonTypeName(graphqlScalar);
    return this.once(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          description: `Boolean expression to compare columns of type ${JSON.stringify(graphqlScalar)}. All fields are combined with logical 'AND'.`,
          fields: () => {
            const scalar = this.scalar(graphqlScalar);
            const fields: GraphQLInputFieldConfigMap = {
              _eq: { type: scalar },
              _gt: { type: scalar },
              _gte: { type: scalar },
              _in: { type: listOf(scalar) },
              _is_null: { type: GraphQLBoolean },
              _lt: { type: scalar },
              _lte: { type: scalar },
              _neq: { type: scalar },
              _nin: { type: listOf(scalar) },
            };
            if (isTextType(typeName)) {
              for (const [op, description] of TEXT_OPERATORS)
                fields[op] = { type: scalar, description };
            }
            if (typeName === 'jsonb') {
              fields['_contains'] = {
                type: scalar,
                description: 'does the column contain the given json value at the top level',
              };
              fields['_contained_in'] = {
                type: scalar,
                description: 'is the column contained in the given json value',
              };
              fields['_has_key'] = {
                type: GraphQLString,
                description: 'does the string exist as a top-level key in the column',
              };
              fields['_has_keys_all'] = {
                type: listOf(GraphQLString),
                description: 'do all of these strings exist as top-level keys in the column',
              };
              fields['_has_keys_any'] = {
                type: listOf(GraphQLString),
                description: 'do any of these strings exist as top-level keys in the column',
              };
            }
            return fields;
          },
        }),
    );
  }

  private orderByEnum(): GraphQLEnumType {
    return this.once(
      'order_by',
      () =>
        new GraphQLEnumType({
          name: 'order_by',
          description: 'column ordering options',
          values: {
            asc: { description: 'in ascending order, nulls last' },
            asc_nulls_first: { description: 'in ascending order, nulls first' },
            asc_nulls_last: { description: 'in ascending order, nulls last' },
            desc: { description: 'in descending order, nulls first' },
            desc_nulls_first: { description: 'in descending order, nulls first' },
            desc_nulls_last: { description: 'in descending order, nulls last' },
          },
        }),
    );
  }

  /** `<t>_order_by`, or undefined when the role could order by nothing. */
  private orderByType(entry: RoleTable): GraphQLInputObjectType | undefined {
    const computed = this.visibleComputedFields(entry).filter(({ field }) =>
      this.argumentFree(field),
    );
    if (
      this.selectColumns(entry).length === 0 &&
      this.visibleRelationships(entry).length === 0 &&
      computed.length === 0
    )
      return undefined;
    const name = `${entry.table.typeName}_order_by`;
    return this.once(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          description: `Ordering options when selecting data from ${quotedTable(entry.table)}.`,
          fields: () => {
            const fields: GraphQLInputFieldConfigMap = {};
            for (const column of this.selectColumns(entry)) {
              fields[column.name] = {
                type: this.orderByEnum(),
                description: columnDescription(entry.table, column),
              };
            }
            for (const { relationship, target } of this.visibleRelationships(entry)) {
              if (relationship.kind === 'object') {
                const type = this.orderByType(target);
                if (type) fields[relationship.name] = { type };
              } else {
                fields[`${relationship.name}_aggregate`] = {
                  type: this.aggregateOrderByType(target),
                };
              }
            }
            for (const { field, scalar, target } of computed) {
              if (scalar !== undefined) fields[field.name] = { type: this.orderByEnum() };
              else fields[`${field.name}_aggregate`] = { type: this.aggregateOrderByType(target) };
            }
            return fields;
          },
        }),
    );
  }

  private aggregateOrderByType(entry: RoleTable): GraphQLInputObjectType {
    const name = `${entry.table.typeName}_aggregate_order_by`;
    return this.once(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          description: `order by aggregate values of table ${quotedTable(entry.table)}`,
          fields: () => {
            const fields: GraphQLInputFieldConfigMap = { count: { type: this.orderByEnum() } };
            for (const fn of SORTED_AGGREGATE_FUNCTIONS) {
              const columns = this.selectColumns(entry).filter((column) => eligibleFor(fn, column));
              if (columns.length === 0) continue;
              const fnName = `${entry.table.typeName}_${fn}_order_by`;
              const type = this.once(
                fnName,
                () =>
                  new GraphQLInputObjectType({
                    name: fnName,
                    description: `order by ${fn}() on columns of table ${quotedTable(entry.table)}`,
                    fields: () =>
                      Object.fromEntries(
                        columns.map((column) => [
                          column.name,
                          {
                            type: this.orderByEnum(),
                            description: columnDescription(entry.table, column),
                          },
                        ]),
                      ),
                  }),
              );
              fields[fn] = { type };
            }
            return fields;
          },
        }),
    );
  }

  // ---- Mutations -------------------------------------------------------------------------

  private columnInput(
    name: string,
    description: string,
    entry: RoleTable,
    columns: ColumnField[],
    typeOf = (column: ColumnField): GraphQLInputType => this.columnScalar(column),
  ) {
    return this.once(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          description,
          fields: () =>
            Object.fromEntries(
              columns.map((column) => [
                column.name,
                { type: typeOf(column), description: columnDescription(entry.table, column) },
              ]),
            ),
        }),
    );
  }

  private insertInputType(entry: RoleTable): GraphQLInputObjectType | undefined {
    const permission = entry.insert!;
    const columns = writableColumns(entry.table, permission.columns, permission.presets);
    if (columns.length === 0) return undefined;
    return this.columnInput(
      `${entry.table.typeName}_insert_input`,
      `input type for inserting data into table ${quotedTable(entry.table)}`,
      entry,
      columns,
    );
  }

  private updateColumns(entry: RoleTable): ColumnField[] {
    return entry.update
      ? writableColumns(entry.table, entry.update.columns, entry.update.presets)
      : [];
  }

  /** Like Hasura, offered whenever the table has a unique or primary key (DO NOTHING needs no update permission). */
  private onConflictType(entry: RoleTable): GraphQLInputObjectType | undefined {
    const { table } = entry;
    const constraints = table.info.uniqueConstraints;
    if (constraints.length === 0) return undefined;
    const name = `${table.typeName}_on_conflict`;
    return this.once(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          description: `on_conflict condition type for table ${quotedTable(table)}`,
          fields: () => {
            const constraintName = `${table.typeName}_constraint`;
            const constraint = this.once(
              constraintName,
              () =>
                new GraphQLEnumType({
                  name: constraintName,
                  description: `unique or primary key constraints on table ${quotedTable(table)}`,
                  values: Object.fromEntries(
                    constraints.map((unique) => [
                      unique.name,
                      {
                        value: unique.name,
                        description: `unique or primary key constraint on columns ${unique.columns.map((column) => `"${column}"`).join(', ')}`,
                      },
                    ]),
                  ),
                }),
            );
            const updateColumnName = `${table.typeName}_update_column`;
            const columns = this.updateColumns(entry);
            const updateColumn = this.once(
              updateColumnName,
              () =>
                new GraphQLEnumType({
                  name: updateColumnName,
                  ...(columns.length > 0
                    ? {
                        description: `update columns of table ${quotedTable(table)}`,
                        values: columnEnumValues(columns),
                      }
                    : {
                        description: `placeholder for update columns of table ${quotedTable(table)} (current role has no relevant permissions)`,
                        values: { _PLACEHOLDER: { description: 'placeholder (do not use)' } },
                      }),
                }),
            );
            return {
              constraint: { type: nonNull(constraint) },
              update_columns: { type: nonNull(listOf(updateColumn)), defaultValue: [] },
              where: { type: this.boolExpType(entry) },
            };
          },
        }),
    );
  }

  private mutationResponseType(entry: RoleTable): GraphQLObjectType {
    const name = `${entry.table.typeName}_mutation_response`;
    return this.once(
      name,
      () =>
        new GraphQLObjectType({
          name,
          description: `response of any mutation on the table ${quotedTable(entry.table)}`,
          fields: () => {
            const fields: GraphQLFieldConfigMap<unknown, unknown> = {
              affected_rows: {
                type: nonNull(GraphQLInt),
                description: 'number of rows affected by the mutation',
              },
            };
            const target = this.selectable(entry.table.key);
            if (target)
              fields['returning'] = {
                type: nonNull(listOf(this.objectType(target))),
                description: 'data from the rows affected by the mutation',
              };
            return fields;
          },
        }),
    );
  }

  private primaryKeyInputType(entry: RoleTable): GraphQLInputObjectType {
    const name = `${entry.table.typeName}_pk_columns_input`;
    return this.once(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          description: `primary key columns input for table: ${plainTable(entry.table)}`,
          fields: () => this.primaryKeyArgs(entry),
        }),
    );
  }

  /** `_set`, `_inc` and the jsonb operators, each only when some column can take it. */
  private updateOperatorArgs(entry: RoleTable): GraphQLFieldConfigArgumentMap {
    const { table } = entry;
    const columns = this.updateColumns(entry);
    const args: GraphQLFieldConfigArgumentMap = {};
    if (columns.length > 0) {
      args['_set'] = {
        type: this.columnInput(
          `${table.typeName}_set_input`,
          `input type for updating data in table ${quotedTable(table)}`,
          entry,
          columns,
        ),
        description: 'sets the columns of the filtered rows to the given values',
      };
    }
    const numeric = columns.filter(
      (column) => isNumericType(column.column.typeName) && !column.column.isArray,
    );
    if (numeric.length > 0) {
      args['_inc'] = {
        type: this.columnInput(
          `${table.typeName}_inc_input`,
          `input type for incrementing numeric columns in table ${quotedTable(table)}`,
          entry,
          numeric,
        ),
        description: 'increments the numeric columns with given value of the filtered values',
      };
    }
    const jsonb = columns.filter((column) => column.column.typeName === 'jsonb');
    if (jsonb.length > 0) {
      for (const [op, { type, description }] of Object.entries(JSONB_OPERATORS) as Array<
        [JsonbOperator, (typeof JSONB_OPERATORS)[JsonbOperator]]
      >) {
        const operand = (column: ColumnField): GraphQLInputType =>
          op === '_delete_key'
            ? GraphQLString
            : op === '_delete_elem'
              ? GraphQLInt
              : op === '_delete_at_path'
                ? listOf(GraphQLString)
                : this.columnScalar(column);
        args[op] = {
          type: this.columnInput(
            `${table.typeName}_${type}_input`,
            description,
            entry,
            jsonb,
            operand,
          ),
          description,
        };
      }
    }
    return args;
  }

  // ---- Actions ---------------------------------------------------------------------------

  private actionField(action: ActionMetadata): GraphQLFieldConfig<unknown, unknown> {
    const { definition } = action;
    const args: GraphQLFieldConfigArgumentMap = {};
    for (const argument of definition.arguments) {
      args[argument.name] = {
        type: this.customType(parseType(argument.type), 'input') as GraphQLInputType,
      };
    }
    const type =
      definition.kind === 'asynchronous' || !definition.output_type
        ? nonNull(this.scalar('uuid'))
        : (this.customType(parseType(definition.output_type), 'output') as GraphQLOutputType);
    return { type, args, description: action.comment ?? undefined };
  }

  /** A type written in action SDL: built-in, custom (metadata custom_types) or a Postgres scalar. */
  private customType(node: TypeNode, mode: 'input' | 'output'): GraphQLType {
    if (node.kind === Kind.NON_NULL_TYPE)
      return nonNull(this.customType(node.type, mode) as GraphQLInputType & GraphQLOutputType);
    if (node.kind === Kind.LIST_TYPE) return new GraphQLList(this.customType(node.type, mode));
    const name = node.name.value;
    const custom: CustomTypesMetadata = this.role.customTypes;
    const builtIn = BUILT_IN_SCALARS[name];
    if (builtIn) return builtIn;
    const enumType = custom.enums.find((candidate) => candidate.name === name);
    if (enumType) {
      return this.once(
        name,
        () =>
          new GraphQLEnumType({
            name,
            description: (enumType['description'] as string | null | undefined) ?? undefined,
            values: Object.fromEntries(
              enumType.values.map((value) => [
                value.value,
                { description: (value['description'] as string | null | undefined) ?? undefined },
              ]),
            ),
          }),
      );
    }
    const input = custom.input_objects.find((candidate) => candidate.name === name);
    if (input && mode === 'input') {
      return this.once(
        name,
        () =>
          new GraphQLInputObjectType({
            name,
            description: (input['description'] as string | null | undefined) ?? undefined,
            fields: () =>
              Object.fromEntries(
                input.fields.map((field) => [
                  field.name,
                  {
                    type: this.customType(parseType(field.type), 'input') as GraphQLInputType,
                    description: field.description ?? undefined,
                  },
                ]),
              ),
          }),
      );
    }
    const object = custom.objects.find((candidate) => candidate.name === name);
    if (object && mode === 'output') {
      return this.once(
        name,
        () =>
          new GraphQLObjectType({
            name,
            description: (object['description'] as string | null | undefined) ?? undefined,
            fields: () => {
              const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
              for (const field of object.fields) {
                fields[field.name] = {
                  type: this.customType(parseType(field.type), 'output') as GraphQLOutputType,
                  description: field.description ?? undefined,
                };
              }
              for (const relationship of object.relationships) {
                const target = this.selectable(
                  qualifiedKey(relationship.remote_table.schema, relationship.remote_table.name),
                );
                if (!target) continue;
                fields[relationship.name] =
                  relationship.type === 'object'
                    ? { type: this.objectType(target), description: 'An object relationship' }
                    : {
                        type: nonNull(listOf(this.objectType(target))),
                        args: this.selectArgs(target),
                        description: 'An array relationship',
                      };
              }
              return fields;
            },
          }),
      );
    }
    return this.scalar(name);
  }
}

function columnEnumValues(columns: ColumnField[]): GraphQLEnumValueConfigMap {
  return Object.fromEntries(
    columns.map((column) => [column.name, { value: column.name, description: 'column name' }]),
  );
}

const cache = new WeakMap<RoleSchema, GraphQLSchema>();

/**
 * The role's API as a graphql-js schema, built once per RoleSchema (a model's roles never
 * change). Everything it needs is reachable from the role; `model` is accepted so callers
 * that hold one can pass it, and is not otherwise needed.
 */
export function buildGraphQLSchema(role: RoleSchema, _model?: SchemaModel): GraphQLSchema {
  const cached = cache.get(role);
  if (cached) return cached;
  const schema = new RoleSchemaBuilder(role).build();
  cache.set(role, schema);
  return schema;
}
