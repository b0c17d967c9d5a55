import { PORT_VARIABLES, type StackPart, type StackPorts } from '@app/shared/env';

/*
 * The environment a test starts `npm start` (scripts/start.ts) with, as a person would: none of
 * the stack's own variables from the test's environment (CI's, a developer's .env), then the
 * port variables and whatever the test sets on purpose.
 */

/** Variables the services or the launcher read; a test's stack must not inherit them. */
const STACK_VARIABLE =
  /^(DATABASE_URL|PUBLIC_|AUTH_|ENGINE_|MINIAPP_|ACTIONS_|BOT_|WEB_|HASURA_|EMBEDDED_DB_|SMTP_URL|TELEGRAM_|METRICS_TOKEN|LOG_LEVEL|NODE_ENV|NODE_EXTRA_CA_CERTS)/;

/** The environment with none of the stack's variables, so only what the test sets counts. */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !STACK_VARIABLE.test(name)),
  );
}

/** The six port variables (WEB_PORT, HASURA_GRAPHQL_SERVER_PORT, ...) for these ports. */
export function portVariables(ports: StackPorts): Record<string, string> {
  return Object.fromEntries(
    (Object.keys(PORT_VARIABLES) as StackPart[]).map((part) => [
      PORT_VARIABLES[part],
      String(ports[part]),
    ]),
  );
}
