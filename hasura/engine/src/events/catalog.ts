/*
 * The durable event log, in the shape of Hasura's own "source catalog" (version 3): the
 * tables `hdb_catalog.event_log` and `hdb_catalog.event_invocation_logs`, and the function
 * `hdb_catalog.insert_event_log(...)` that every table trigger calls. Keeping the shape and
 * recording the catalog version lets the official engine take over the same database (it
 * then sees an initialised source and migrates it on from there); ids are uuids kept as
 * text, as there.
 *
 * Cron events live in tables of our own (`hdb_catalog.engine_cron_events`): Hasura keeps its
 * cron events in its *metadata* catalog, which it creates in one piece and would refuse to
 * create beside a same-named table of ours.
 *
 * Everything here is idempotent; the caller runs it in one transaction under an advisory
 * lock so that two engines starting together do not race on the DDL.
 */

/** Hasura's latest Postgres source catalog version that this layout matches. */
export const SOURCE_CATALOG_VERSION = '3';

/** pg_advisory_xact_lock key held while installing the catalog and the table triggers. */
export const SETUP_LOCK_KEY = 0x68646265; // "hdbe"

/** Channel the table triggers notify on commit; only a hint, polling is the guarantee. */
export const NOTIFY_CHANNEL = 'hdb_engine_events';

export const CATALOG_DDL = `
CREATE SCHEMA IF NOT EXISTS hdb_catalog;

CREATE OR REPLACE FUNCTION hdb_catalog.gen_hasura_uuid() RETURNS uuid
  LANGUAGE sql AS 'SELECT gen_random_uuid()';

CREATE TABLE IF NOT EXISTS hdb_catalog.hdb_source_catalog_version (
  version TEXT NOT NULL,
  upgraded_on TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS hdb_source_catalog_version_one_row
  ON hdb_catalog.hdb_source_catalog_version ((version IS NOT NULL));
INSERT INTO hdb_catalog.hdb_source_catalog_version (version, upgraded_on)
  SELECT '${SOURCE_CATALOG_VERSION}', now()
  WHERE NOT EXISTS (SELECT 1 FROM hdb_catalog.hdb_source_catalog_version);

CREATE TABLE IF NOT EXISTS hdb_catalog.event_log (
  id TEXT DEFAULT hdb_catalog.gen_hasura_uuid() PRIMARY KEY,
  schema_name TEXT NOT NULL,
  table_name TEXT NOT NULL,
  trigger_name TEXT NOT NULL,
  payload JSONB NOT NULL,
  delivered BOOLEAN NOT NULL DEFAULT FALSE,
  error BOOLEAN NOT NULL DEFAULT FALSE,
  tries INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMP DEFAULT now(),
  -- NULL: free to claim; otherwise when a worker claimed it (a lease, see the worker).
  locked TIMESTAMPTZ,
  next_retry_at TIMESTAMP,
  archived BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX IF NOT EXISTS event_log_trigger_name_idx ON hdb_catalog.event_log (trigger_name);
CREATE INDEX IF NOT EXISTS event_log_fetch_events
  ON hdb_catalog.event_log (locked NULLS FIRST, next_retry_at NULLS FIRST, created_at)
  WHERE delivered = 'f' AND error = 'f' AND archived = 'f';

CREATE TABLE IF NOT EXISTS hdb_catalog.event_invocation_logs (
  id TEXT DEFAULT hdb_catalog.gen_hasura_uuid() PRIMARY KEY,
  trigger_name TEXT,
  event_id TEXT,
  status INTEGER,
  request JSON,
  response JSON,
  created_at TIMESTAMP DEFAULT now()
);
CREATE INDEX IF NOT EXISTS event_invocation_logs_event_id_idx
  ON hdb_catalog.event_invocation_logs (event_id);

CREATE TABLE IF NOT EXISTS hdb_catalog.hdb_event_log_cleanups (
  id TEXT DEFAULT hdb_catalog.gen_hasura_uuid() PRIMARY KEY,
  trigger_name TEXT NOT NULL,
  scheduled_at TIMESTAMP NOT NULL,
  deleted_event_logs INTEGER,
  deleted_event_invocation_logs INTEGER,
  status TEXT NOT NULL CHECK (status IN ('scheduled', 'paused', 'completed', 'dead')),
  UNIQUE (trigger_name, scheduled_at)
);

-- Called by every table trigger, inside the writing transaction. The session variables are
-- those the engine put in 'hasura.user' for the transaction (NULL when another client wrote;
-- an unset custom setting may read as '' once it was set earlier in the session).
CREATE OR REPLACE FUNCTION hdb_catalog.insert_event_log(
  schema_name text, table_name text, trigger_name text, op text, row_data json
) RETURNS text LANGUAGE plpgsql AS $body$
DECLARE
  event_id text := gen_random_uuid()::text;
BEGIN
  INSERT INTO hdb_catalog.event_log (id, schema_name, table_name, trigger_name, payload)
  VALUES (
    event_id, schema_name, table_name, trigger_name,
    json_build_object(
      'op', op,
      'data', row_data,
      'session_variables', NULLIF(current_setting('hasura.user', true), '')::json,
      'trace_context', NULLIF(current_setting('hasura.tracecontext', true), '')::json
    )
  );
  RETURN event_id;
END;
$body$;

CREATE TABLE IF NOT EXISTS hdb_catalog.engine_cron_events (
  id TEXT DEFAULT hdb_catalog.gen_hasura_uuid() PRIMARY KEY,
  trigger_name TEXT NOT NULL,
  scheduled_time TIMESTAMPTZ NOT NULL,
  status TEXT NOT NULL DEFAULT 'scheduled'
    CHECK (status IN ('scheduled', 'locked', 'delivered', 'error', 'dead')),
  tries INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  next_retry_at TIMESTAMPTZ,
  locked_at TIMESTAMPTZ,
  UNIQUE (trigger_name, scheduled_time)
);
CREATE INDEX IF NOT EXISTS engine_cron_events_due
  ON hdb_catalog.engine_cron_events (status, scheduled_time);

CREATE TABLE IF NOT EXISTS hdb_catalog.engine_cron_event_invocation_logs (
  id TEXT DEFAULT hdb_catalog.gen_hasura_uuid() PRIMARY KEY,
  event_id TEXT,
  trigger_name TEXT,
  status INTEGER,
  request JSON,
  response JSON,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS engine_cron_event_invocation_logs_event_id_idx
  ON hdb_catalog.engine_cron_event_invocation_logs (event_id);
`;
