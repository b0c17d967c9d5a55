import type {
  CronTriggerMetadata,
  EventTriggerMetadata,
  HeaderMetadata,
  Metadata,
} from '../metadata/model.ts';
import { MetadataError } from '../metadata/load.ts';

/*
 * What the delivery side needs from metadata, resolved once at start-up: the webhook URL
 * (`{{VAR}}` templates, `webhook_from_env`), the headers (`value`, `value_from_env`) and
 * the retry policy. A trigger whose environment is incomplete is not delivered (its events
 * stay in the log until the environment is fixed), as Hasura treats such a trigger as an
 * inconsistent object rather than refusing to start.
 */

export type Environment = Record<string, string | undefined>;

/** How a header is shown in invocation logs: never the value of an env-sourced secret. */
export type LoggedHeader =
  { name: string; value: string } | { name: string; value_from_env: string };

export interface DeliveryTarget {
  url: string;
  /** Configured headers, resolved. */
  headers: Array<[string, string]>;
  loggedHeaders: LoggedHeader[];
}

export interface RetryPolicy {
  numRetries: number;
  intervalSeconds: number;
  timeoutSeconds: number;
}

export type Resolved<T> = { ok: true; value: T } | { ok: false; error: string };

/** Trigger names become parts of SQL identifiers (`notify_hasura_<name>_INSERT`, 63 bytes). */
export const MAX_TRIGGER_NAME_LENGTH = 42;
const TRIGGER_NAME = /^[A-Za-z0-9_-]+$/;

export function validateTriggerName(name: string, what: string): void {
  if (!TRIGGER_NAME.test(name)) {
    throw new MetadataError(
      `${what} name ${JSON.stringify(name)} may contain only letters, digits, "_" and "-"`,
    );
  }
  if (name.length > MAX_TRIGGER_NAME_LENGTH) {
    throw new MetadataError(
      `${what} name ${JSON.stringify(name)} is longer than ${MAX_TRIGGER_NAME_LENGTH} characters`,
    );
  }
}

const TEMPLATE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Replaces every `{{VAR}}` with the variable's value; fails on the first one not set. */
export function resolveTemplate(text: string, environment: Environment): Resolved<string> {
  let missing: string | undefined;
  const value = text.replace(TEMPLATE, (_match, name: string) => {
    const found = environment[name];
    if (found === undefined) missing ??= name;
    return found ?? '';
  });
  return missing === undefined
    ? { ok: true, value }
    : { ok: false, error: `environment variable '${missing}' is not set` };
}

function resolveUrl(url: string): Resolved<string> {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return { ok: false, error: `webhook ${JSON.stringify(url)} is not an http(s) URL` };
    }
    return { ok: true, value: parsed.toString() };
  } catch {
    return { ok: false, error: `webhook ${JSON.stringify(url)} is not a valid URL` };
  }
}

export function resolveHeaders(
  headers: HeaderMetadata[],
  environment: Environment,
): Resolved<Pick<DeliveryTarget, 'headers' | 'loggedHeaders'>> {
  const resolved: Array<[string, string]> = [];
  const logged: LoggedHeader[] = [];
  for (const header of headers) {
    const fromEnv = (header as { value_from_env?: unknown }).value_from_env;
    const literal = (header as { value?: unknown }).value;
    if (typeof fromEnv === 'string') {
      const value = environment[fromEnv];
      if (value === undefined) {
        return {
          ok: false,
          error: `environment variable '${fromEnv}' of header '${header.name}' is not set`,
        };
      }
      resolved.push([header.name, value]);
      logged.push({ name: header.name, value_from_env: fromEnv });
    } else if (typeof literal === 'string') {
      resolved.push([header.name, literal]);
      logged.push({ name: header.name, value: literal });
    } else {
      return { ok: false, error: `header '${header.name}' has neither value nor value_from_env` };
    }
  }
  return { ok: true, value: { headers: resolved, loggedHeaders: logged } };
}

function target(
  webhook: Resolved<string>,
  headers: HeaderMetadata[],
  environment: Environment,
): Resolved<DeliveryTarget> {
  if (!webhook.ok) return webhook;
  const url = resolveUrl(webhook.value);
  if (!url.ok) return url;
  const resolvedHeaders = resolveHeaders(headers, environment);
  if (!resolvedHeaders.ok) return resolvedHeaders;
  return { ok: true, value: { url: url.value, ...resolvedHeaders.value } };
}

export function eventTriggerTarget(
  trigger: EventTriggerMetadata,
  environment: Environment,
): Resolved<DeliveryTarget> {
  let webhook: Resolved<string>;
  if (trigger.webhook !== undefined) {
    webhook = resolveTemplate(trigger.webhook, environment);
  } else if (trigger.webhook_from_env !== undefined) {
    const value = environment[trigger.webhook_from_env];
    webhook =
      value === undefined
        ? { ok: false, error: `environment variable '${trigger.webhook_from_env}' is not set` }
        : { ok: true, value };
  } else {
    webhook = { ok: false, error: 'neither webhook nor webhook_from_env is set' };
  }
  return target(webhook, trigger.headers, environment);
}

export function cronTriggerTarget(
  trigger: CronTriggerMetadata,
  environment: Environment,
): Resolved<DeliveryTarget> {
  return target(resolveTemplate(trigger.webhook, environment), trigger.headers, environment);
}

export const eventRetryPolicy = (trigger: EventTriggerMetadata): RetryPolicy => ({
  numRetries: trigger.retry_conf.num_retries,
  intervalSeconds: trigger.retry_conf.interval_sec,
  timeoutSeconds: trigger.retry_conf.timeout_sec,
});

/** Hasura's default: a cron event more than 6 hours late is dropped (marked dead). */
export const DEFAULT_CRON_TOLERANCE_SECONDS = 21_600;

export const cronRetryPolicy = (
  trigger: CronTriggerMetadata,
): RetryPolicy & { toleranceSeconds: number } => {
  const tolerance = (trigger.retry_conf as Record<string, unknown>)['tolerance_seconds'];
  return {
    numRetries: trigger.retry_conf.num_retries,
    intervalSeconds: trigger.retry_conf.retry_interval_seconds,
    timeoutSeconds: trigger.retry_conf.timeout_seconds,
    toleranceSeconds:
      typeof tolerance === 'number' && Number.isFinite(tolerance) && tolerance >= 0
        ? tolerance
        : DEFAULT_CRON_TOLERANCE_SECONDS,
  };
};

/** Every table event trigger of the metadata, with its table. */
export interface TableEventTrigger {
  schema: string;
  table: string;
  trigger: EventTriggerMetadata;
}

export function tableEventTriggers(metadata: Metadata): TableEventTrigger[] {
  const found: TableEventTrigger[] = [];
  const seen = new Set<string>();
  for (const source of metadata.sources) {
    for (const table of source.tables) {
      for (const trigger of table.event_triggers) {
        validateTriggerName(trigger.name, 'event trigger');
        if (seen.has(trigger.name))
          throw new MetadataError(`event trigger ${JSON.stringify(trigger.name)} is defined twice`);
        seen.add(trigger.name);
        if (trigger.webhook === undefined && trigger.webhook_from_env === undefined) {
          throw new MetadataError(
            `event trigger ${JSON.stringify(trigger.name)} has neither webhook nor webhook_from_env`,
          );
        }
        found.push({ schema: table.table.schema, table: table.table.name, trigger });
      }
    }
  }
  return found;
}

export function cronTriggers(metadata: Metadata): CronTriggerMetadata[] {
  const seen = new Set<string>();
  for (const trigger of metadata.cron_triggers) {
    validateTriggerName(trigger.name, 'cron trigger');
    if (seen.has(trigger.name))
      throw new MetadataError(`cron trigger ${JSON.stringify(trigger.name)} is defined twice`);
    seen.add(trigger.name);
  }
  return metadata.cron_triggers;
}
