import { existsSync } from 'node:fs';
import path from 'node:path';

/** A service the launcher runs when its workspace has an entry point. */
export interface ServiceDefinition {
  name: string;
  /** Workspace folder, relative to the repository root. */
  workspace: string;
  entry: string;
  port: number;
  /** Environment variable through which the service takes its port. */
  portVariable: string;
  healthPath: string;
  /** What to print for people, given the port. */
  urls: (port: number) => string[];
}

/** Default ports are fixed by ARCHITECTURE.md; each is overridable by its variable. */
export const SERVICES: ServiceDefinition[] = [
  {
    name: 'engine',
    workspace: 'hasura/engine',
    entry: 'src/main.ts',
    port: 8080,
    portVariable: 'HASURA_GRAPHQL_SERVER_PORT',
    healthPath: '/healthz',
    urls: (p) => [`GraphQL      http://localhost:${p}/v1/graphql`],
  },
  {
    name: 'actions',
    workspace: 'hasura/actions',
    entry: 'src/main.ts',
    port: 4100,
    portVariable: 'ACTIONS_PORT',
    healthPath: '/healthz',
    urls: (p) => [`Actions      http://localhost:${p}`],
  },
  {
    name: 'auth',
    workspace: 'auth-service',
    entry: 'src/main.ts',
    port: 4000,
    portVariable: 'AUTH_PORT',
    healthPath: '/healthz',
    urls: (p) => [`Auth         http://localhost:${p}`],
  },
  {
    name: 'web',
    workspace: 'web',
    entry: 'server/main.ts',
    port: 3000,
    portVariable: 'WEB_PORT',
    healthPath: '/healthz',
    urls: (p) => [
      `Web portal   http://localhost:${p}/`,
      `Mini-app     http://localhost:${p}/telegram-app`,
    ],
  },
  {
    name: 'bot',
    workspace: 'bot',
    entry: 'src/main.ts',
    port: 4200,
    portVariable: 'BOT_PORT',
    healthPath: '/healthz',
    urls: (p) => [`Bot sandbox  http://localhost:${p}/`],
  },
];

/** The bot's event-trigger endpoint (BOT_EVENTS_URL) when not configured: the bot service's. */
export function defaultBotEventsUrl(env: NodeJS.ProcessEnv): string {
  const bot = SERVICES.find((service) => service.name === 'bot')!;
  return `http://127.0.0.1:${servicePort(bot, env)}/events`;
}

/** The services whose code exists in this checkout. */
export function availableServices(root: string): ServiceDefinition[] {
  return SERVICES.filter((service) =>
    existsSync(path.join(root, service.workspace, service.entry)),
  );
}

/** The port a service will use: its variable if set, else the default. */
export function servicePort(service: ServiceDefinition, env: NodeJS.ProcessEnv): number {
  const configured = Number(env[service.portVariable]);
  return Number.isInteger(configured) && configured > 0 ? configured : service.port;
}
