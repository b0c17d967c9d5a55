import { existsSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_PORTS, PORT_VARIABLES, portOr, webOrigins } from '@app/shared/env';

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

/**
 * Default ports are fixed by ARCHITECTURE.md (DEFAULT_PORTS in shared/src/env/stack-addresses.ts,
 * decision 022); each is overridable by its variable.
 */
export const SERVICES: ServiceDefinition[] = [
  {
    name: 'engine',
    workspace: 'hasura/engine',
    entry: 'src/main.ts',
    port: DEFAULT_PORTS.engine,
    portVariable: PORT_VARIABLES.engine,
    healthPath: '/healthz',
    urls: (p) => [`GraphQL      http://localhost:${p}/v1/graphql`],
  },
  {
    name: 'actions',
    workspace: 'hasura/actions',
    entry: 'src/main.ts',
    port: DEFAULT_PORTS.actions,
    portVariable: PORT_VARIABLES.actions,
    healthPath: '/healthz',
    urls: (p) => [`Actions      http://localhost:${p}`],
  },
  {
    name: 'auth',
    workspace: 'auth-service',
    entry: 'src/main.ts',
    port: DEFAULT_PORTS.auth,
    portVariable: PORT_VARIABLES.auth,
    healthPath: '/healthz',
    urls: (p) => [`Auth         http://localhost:${p}`],
  },
  {
    name: 'web',
    workspace: 'web',
    entry: 'server/main.ts',
    port: DEFAULT_PORTS.web,
    portVariable: PORT_VARIABLES.web,
    healthPath: '/healthz',
    urls: (p) => {
      const [localhost, loopback] = webOrigins(p);
      return [
        `Web portal   ${localhost}/  (or ${loopback}/)`,
        `Mini-app     ${localhost}/telegram-app`,
      ];
    },
  },
  {
    name: 'bot',
    workspace: 'bot',
    entry: 'src/main.ts',
    port: DEFAULT_PORTS.bot,
    portVariable: PORT_VARIABLES.bot,
    healthPath: '/healthz',
    urls: (p) => [`Bot sandbox  http://localhost:${p}/`],
  },
  {
    name: 'watchers',
    workspace: 'watchers',
    entry: 'src/main.ts',
    port: DEFAULT_PORTS.watchers,
    portVariable: PORT_VARIABLES.watchers,
    healthPath: '/healthz',
    urls: () => [],
  },
];

/** The services whose code exists in this checkout. */
export function availableServices(root: string): ServiceDefinition[] {
  return SERVICES.filter((service) =>
    existsSync(path.join(root, service.workspace, service.entry)),
  );
}

/** The port a service will use: its variable if set, else the default. */
export function servicePort(service: ServiceDefinition, env: NodeJS.ProcessEnv): number {
  return portOr(env[service.portVariable], service.port);
}
