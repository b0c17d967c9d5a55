import type {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLFieldConfig,
  GraphQLFieldConfigArgumentMap,
  GraphQLNamedType,
} from 'graphql';

import type { ActionMetadata } from '../../metadata/model.ts';
import type {
  ColumnField,
  ComputedField,
  RelationshipField,
  RoleSchema,
  RoleTable,
  RootField,
} from '../model.ts';

import type { SelectableTable, VisibleComputedField } from './shared.ts';

/**
 * The builders of one role's GraphQL types, as each module sees the others: every builder is a
 * function of this registry, so the modules call each other through it instead of importing
 * each other, and the named types are built once per role (`once`).
 */
export interface RoleTypes {
  readonly role: RoleSchema;
  /** One named type per name; `make` must defer its fields (thunks), so cycles resolve. */
  once<T extends GraphQLNamedType>(name: string, make: () => T): T;
  rootType(
    name: string,
    description: string | undefined,
    roots: Map<string, RootField>,
  ): GraphQLObjectType | undefined;
  primaryKeyArgs(entry: RoleTable): GraphQLFieldConfigArgumentMap;
  selectArgs(entry: RoleTable): GraphQLFieldConfigArgumentMap;
  selectable(key: string): SelectableTable | undefined;
  selectColumns(entry: RoleTable): ColumnField[];
  visibleComputedFields(entry: RoleTable): VisibleComputedField[];
  argumentFree(computed: ComputedField): boolean;
  visibleRelationships(
    entry: RoleTable,
  ): Array<{ relationship: RelationshipField; target: SelectableTable }>;
  scalar(name: string): GraphQLScalarType;
  columnScalar(column: ColumnField): GraphQLScalarType;
  objectType(entry: RoleTable): GraphQLObjectType;
  computedFieldInputs(computed: ComputedField): Array<{ name: string; scalar: string }>;
  selectColumnEnum(entry: RoleTable): GraphQLEnumType | undefined;
  aggregateType(entry: RoleTable): GraphQLObjectType;
  boolExpType(entry: RoleTable): GraphQLInputObjectType;
  orderByType(entry: RoleTable): GraphQLInputObjectType | undefined;
  insertInputType(entry: RoleTable): GraphQLInputObjectType | undefined;
  onConflictType(entry: RoleTable): GraphQLInputObjectType | undefined;
  mutationResponseType(entry: RoleTable): GraphQLObjectType;
  primaryKeyInputType(entry: RoleTable): GraphQLInputObjectType;
  updateOperatorArgs(entry: RoleTable): GraphQLFieldConfigArgumentMap;
  actionField(action: ActionMetadata): GraphQLFieldConfig<unknown, unknown>;
}
