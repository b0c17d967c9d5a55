import { webhookEnvironment, type GroupConfig } from './config.ts';
import { isObject, type JsonObject, type LoadedCase, type LoadedGroup } from './corpus.ts';
import type { ServerSettings } from './engine.ts';
import { serverJwtSecret, type JwtKeys } from './jwt.ts';

/*
 * The server configuration a case runs under, from its group.yaml `server:` block, the case's
 * own keys (`send_admin_secret`, `server_jwt_config`, `server_env`) and config.ts overrides:
 *
 * - admin_secret `either ...`: a secret is configured (unless --without-admin-secret) and the
 *   runner adds it to every request, as pytest does;
 * - admin_secret `required ...`: a secret is configured and the runner does not send it (the
 *   cases carry their own header, a JWT, or deliberately nothing);
 * - jwt given as data (`type: RS512`): the runner's key pair, merged with the case's
 *   `server_jwt_config`;
 * - prose (`per case`, `anonymous, except for ...`): config.ts `caseServer` must say.
 */

export interface CaseServer {
  settings: ServerSettings;
  sendAdminSecret: boolean;
}

export interface RunSecrets {
  adminSecret: string;
  jwtKeys: JwtKeys;
  /** --without-admin-secret: run the "either" groups with no secret configured. */
  withoutAdminSecret: boolean;
  /** The webhook URLs in effect (the pytest ones unless a port had to move). */
  baseEnvironment?: Record<string, string>;
}

const ROLE_NAME = /^[A-Za-z0-9_-]+$/;

export function caseServer(
  group: LoadedGroup,
  testCase: LoadedCase,
  config: GroupConfig,
  secrets: RunSecrets,
): CaseServer {
  const server = group.meta.server ?? {};
  const mode = String(server.admin_secret ?? '')
    .trim()
    .toLowerCase();
  let adminSecret: string | undefined;
  let sendAdminSecret = false;
  if (mode.startsWith('either')) {
    adminSecret = secrets.withoutAdminSecret ? undefined : secrets.adminSecret;
    sendAdminSecret = true;
  } else if (mode.startsWith('required')) {
    adminSecret = secrets.adminSecret;
  }
  if (typeof testCase.entry.send_admin_secret === 'boolean') {
    sendAdminSecret = testCase.entry.send_admin_secret;
  }

  const override = config.caseServer?.[testCase.file];
  const prose = (value: unknown) => typeof value === 'string' && !ROLE_NAME.test(value);
  if ((prose(server.jwt) || prose(server.unauthorized_role)) && !override) {
    throw new Error(
      `group.yaml describes the server per case (jwt: ${String(server.jwt)}; unauthorized_role: ${String(
        server.unauthorized_role,
      )}) but config.ts has no caseServer entry for ${testCase.file}`,
    );
  }

  let jwtExtra: JsonObject | undefined = isObject(server.jwt) ? {} : undefined;
  if (override?.jwt !== undefined) jwtExtra = override.jwt ? {} : undefined;
  const body = testCase.body;
  const caseJwtConfig =
    body.kind === 'requests'
      ? body.requests.find((spec) => spec.server_jwt_config)?.server_jwt_config
      : undefined;
  if (caseJwtConfig) jwtExtra = { ...(jwtExtra ?? {}), ...caseJwtConfig };

  let unauthorizedRole =
    typeof server.unauthorized_role === 'string' && ROLE_NAME.test(server.unauthorized_role)
      ? server.unauthorized_role
      : undefined;
  if (override && override.unauthorizedRole !== undefined) {
    unauthorizedRole = override.unauthorizedRole ?? undefined;
  }

  const caseEnv = body.kind === 'events' ? (body.spec.server_env ?? {}) : {};
  return {
    settings: {
      adminSecret,
      jwtSecret: jwtExtra ? serverJwtSecret(secrets.jwtKeys, jwtExtra) : undefined,
      unauthorizedRole,
      stringifyNumericTypes: server.stringify_numeric_types ?? true,
      environment: {
        ...(server.env ?? {}),
        ...caseEnv,
        ...(secrets.baseEnvironment ?? webhookEnvironment),
      },
    },
    sendAdminSecret,
  };
}
