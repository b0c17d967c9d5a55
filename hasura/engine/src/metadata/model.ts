import * as z from 'zod';

/*
 * Hasura metadata v3, the subset this engine serves, as zod schemas: the loader validates
 * what it reads, and the rest of the engine works with these inferred types. Unknown keys are
 * kept (loose objects), so metadata written for the real engine loads unchanged.
 */

const QualifiedName = z.union([
  z.string().transform((name) => ({ name, schema: 'public' })),
  z.looseObject({ name: z.string(), schema: z.string().default('public') }),
]);
export type QualifiedName = { name: string; schema: string };

const BoolExp = z.record(z.string(), z.unknown());

const Columns = z.union([z.string().transform((column) => [column]), z.array(z.string())]);

const ForeignKeyUsing = z.looseObject({
  foreign_key_constraint_on: z.union([
    Columns,
    z.looseObject({
      table: QualifiedName,
      column: z.string().optional(),
      columns: Columns.optional(),
    }),
  ]),
});
const ManualUsing = z.looseObject({
  manual_configuration: z.looseObject({
    remote_table: QualifiedName,
    column_mapping: z.record(z.string(), z.string()),
    insertion_order: z.enum(['before_parent', 'after_parent']).nullable().optional(),
  }),
});
const Relationship = z.looseObject({
  name: z.string(),
  using: z.union([ForeignKeyUsing, ManualUsing]),
  comment: z.string().nullable().optional(),
});
export type RelationshipMetadata = z.infer<typeof Relationship>;

const ComputedField = z.looseObject({
  name: z.string(),
  definition: z.looseObject({
    function: QualifiedName,
    table_argument: z.string().nullable().optional(),
    session_argument: z.string().nullable().optional(),
  }),
  comment: z.string().nullable().optional(),
});

const ColumnList = z.union([z.literal('*'), z.array(z.string())]);
const Presets = z.record(z.string(), z.unknown());

const SelectPermission = z.looseObject({
  columns: ColumnList,
  filter: BoolExp.default({}),
  limit: z.number().int().nonnegative().nullable().optional(),
  allow_aggregations: z.boolean().default(false),
  computed_fields: z.array(z.string()).default([]),
  query_root_fields: z.array(z.string()).nullable().optional(),
  subscription_root_fields: z.array(z.string()).nullable().optional(),
});
const InsertPermission = z.looseObject({
  check: BoolExp.default({}),
  set: Presets.default({}),
  // Hasura lets every column be inserted when the permission names none.
  columns: ColumnList.default('*'),
  backend_only: z.boolean().default(false),
});
const UpdatePermission = z.looseObject({
  columns: ColumnList.default([]),
  filter: BoolExp.default({}),
  check: BoolExp.nullable().optional(),
  set: Presets.default({}),
  backend_only: z.boolean().default(false),
});
const DeletePermission = z.looseObject({
  filter: BoolExp.default({}),
  backend_only: z.boolean().default(false),
});
const permissionEntry = <T extends z.ZodType>(permission: T) =>
  z.looseObject({ role: z.string(), permission, comment: z.string().nullable().optional() });

const HeaderEntry = z.union([
  z.looseObject({ name: z.string(), value: z.string() }),
  z.looseObject({ name: z.string(), value_from_env: z.string() }),
]);
export type HeaderMetadata = z.infer<typeof HeaderEntry>;

const OperationSpec = z
  .looseObject({
    columns: z.union([z.literal('*'), z.array(z.string())]).default('*'),
    payload: z.union([z.literal('*'), z.array(z.string())]).optional(),
  })
  .nullable()
  .optional();

const EventTrigger = z.looseObject({
  name: z.string(),
  definition: z.looseObject({
    enable_manual: z.boolean().default(false),
    insert: OperationSpec,
    update: OperationSpec,
    delete: OperationSpec,
  }),
  retry_conf: z
    .looseObject({
      num_retries: z.number().int().nonnegative().default(0),
      interval_sec: z.number().int().positive().default(10),
      timeout_sec: z.number().int().positive().default(60),
    })
    .default({ num_retries: 0, interval_sec: 10, timeout_sec: 60 }),
  webhook: z.string().optional(),
  webhook_from_env: z.string().optional(),
  headers: z.array(HeaderEntry).default([]),
});
export type EventTriggerMetadata = z.infer<typeof EventTrigger>;

const RootFieldName = z.union([
  z.string(),
  z
    .looseObject({
      name: z.string().nullable().optional(),
      comment: z.string().nullable().optional(),
    })
    .transform((value) => value.name ?? undefined),
]);

const TableConfiguration = z.looseObject({
  custom_name: z.string().nullable().optional(),
  custom_root_fields: z.record(z.string(), RootFieldName.nullable()).default({}),
  custom_column_names: z.record(z.string(), z.string()).default({}),
  column_config: z
    .record(
      z.string(),
      z.looseObject({
        custom_name: z.string().nullable().optional(),
        comment: z.string().nullable().optional(),
      }),
    )
    .default({}),
  comment: z.string().nullable().optional(),
});

const TableEntry = z.looseObject({
  table: QualifiedName,
  is_enum: z.boolean().default(false),
  configuration: TableConfiguration.default({
    custom_root_fields: {},
    custom_column_names: {},
    column_config: {},
  }),
  object_relationships: z.array(Relationship).default([]),
  array_relationships: z.array(Relationship).default([]),
  computed_fields: z.array(ComputedField).default([]),
  select_permissions: z.array(permissionEntry(SelectPermission)).default([]),
  insert_permissions: z.array(permissionEntry(InsertPermission)).default([]),
  update_permissions: z.array(permissionEntry(UpdatePermission)).default([]),
  delete_permissions: z.array(permissionEntry(DeletePermission)).default([]),
  event_triggers: z.array(EventTrigger).default([]),
});
export type TableMetadata = z.infer<typeof TableEntry>;

const Source = z.looseObject({
  name: z.string(),
  kind: z.string().default('postgres'),
  tables: z.array(TableEntry).default([]),
  functions: z.array(z.looseObject({ function: QualifiedName })).default([]),
});

const ActionArgument = z.looseObject({ name: z.string(), type: z.string() });
const Action = z.looseObject({
  name: z.string(),
  definition: z.looseObject({
    handler: z.string(),
    kind: z.enum(['synchronous', 'asynchronous']).default('synchronous'),
    type: z.enum(['mutation', 'query']).default('mutation'),
    arguments: z
      .array(ActionArgument)
      .nullable()
      .default([])
      .transform((list) => list ?? []),
    output_type: z.string().optional(),
    headers: z.array(HeaderEntry).default([]),
    forward_client_headers: z.boolean().default(false),
    timeout: z.number().int().positive().default(30),
  }),
  permissions: z.array(z.looseObject({ role: z.string() })).default([]),
  comment: z.string().nullable().optional(),
});
export type ActionMetadata = z.infer<typeof Action>;

const CustomField = z.looseObject({
  name: z.string(),
  type: z.string(),
  description: z.string().nullable().optional(),
});
const CustomTypes = z
  .looseObject({
    scalars: z.array(z.looseObject({ name: z.string() })).default([]),
    enums: z
      .array(
        z.looseObject({ name: z.string(), values: z.array(z.looseObject({ value: z.string() })) }),
      )
      .default([]),
    input_objects: z
      .array(z.looseObject({ name: z.string(), fields: z.array(CustomField) }))
      .default([]),
    objects: z
      .array(
        z.looseObject({
          name: z.string(),
          fields: z.array(CustomField),
          relationships: z
            .array(
              z.looseObject({
                name: z.string(),
                type: z.enum(['object', 'array']),
                remote_table: QualifiedName,
                field_mapping: z.record(z.string(), z.string()),
                source: z.string().optional(),
              }),
            )
            .default([]),
        }),
      )
      .default([]),
  })
  .default({ scalars: [], enums: [], input_objects: [], objects: [] });
export type CustomTypesMetadata = z.infer<typeof CustomTypes>;

const CronTrigger = z.looseObject({
  name: z.string(),
  webhook: z.string(),
  schedule: z.string(),
  payload: z.unknown().optional(),
  include_in_metadata: z.boolean().default(true),
  retry_conf: z
    .looseObject({
      num_retries: z.number().int().nonnegative().default(0),
      retry_interval_seconds: z.number().int().positive().default(10),
      timeout_seconds: z.number().int().positive().default(60),
    })
    .default({ num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60 }),
  headers: z.array(HeaderEntry).default([]),
  comment: z.string().nullable().optional(),
});
export type CronTriggerMetadata = z.infer<typeof CronTrigger>;

/** A named list of operations (query_collections.yaml), referred to by the allow-list. */
const QueryCollection = z.looseObject({
  name: z.string().min(1),
  definition: z.looseObject({
    queries: z.array(z.looseObject({ name: z.string().min(1), query: z.string().min(1) })),
  }),
  comment: z.string().nullable().optional(),
});

/** allow_list.yaml: a collection, global unless scoped to roles (graphql-engine's AllowlistScope). */
const AllowlistEntry = z.looseObject({
  collection: z.string().min(1),
  scope: z
    .union([
      z.looseObject({ global: z.literal(true) }),
      z.looseObject({ global: z.literal(false), roles: z.array(z.string().min(1)).min(1) }),
    ])
    .default({ global: true }),
});

export const Metadata = z.looseObject({
  version: z.literal(3),
  sources: z.array(Source).default([]),
  actions: z.array(Action).default([]),
  custom_types: CustomTypes,
  cron_triggers: z.array(CronTrigger).default([]),
  query_collections: z.array(QueryCollection).default([]),
  allowlist: z.array(AllowlistEntry).default([]),
  graphql_schema_introspection: z
    .looseObject({ disabled_for_roles: z.array(z.string()).default([]) })
    .default({ disabled_for_roles: [] }),
});
export type Metadata = z.infer<typeof Metadata>;
