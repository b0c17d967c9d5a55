/**
 * HASURA_GRAPHQL_JWT_SECRET, parsed and validated once at start-up (Hasura v2 semantics).
 *
 * Accepted keys: `type`, `key`, `claims_namespace`, `claims_namespace_path`, `claims_format`,
 * `claims_map`, `audience`, `issuer`, `allowed_skew`, `header`. Unknown keys are ignored, as
 * Hasura does. `jwk_url` is refused (this engine has no JWK fetcher).
 */
import { createPublicKey, createSecretKey, X509Certificate, type KeyObject } from 'node:crypto';

import { encodeJsonPath, parseJsonPath, type JsonPath } from './json-path.ts';

/** The `type` values Hasura accepts. */
export const JWT_KEY_TYPES = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'Ed25519',
] as const;
export type JwtKeyType = (typeof JWT_KEY_TYPES)[number];

/** The JWS `alg` a token must carry for a key type (`Ed25519` keys sign `EdDSA`). */
export type JwsAlgorithm = Exclude<JwtKeyType, 'Ed25519'> | 'EdDSA';

export const DEFAULT_CLAIMS_NAMESPACE = 'https://hasura.io/jwt/claims';

export type JwtClaimsFormat = 'json' | 'stringified_json';

/** Where the token travels. `CustomHeader` carries the bare token (no `Bearer `). */
export type JwtHeaderConfig =
  | { type: 'Authorization' }
  | { type: 'Cookie'; name: string }
  | { type: 'CustomHeader'; name: string };

/** A `claims_map` value: a literal, or a JSON path into the whole claims set with a default. */
export type ClaimsMapValue<T> =
  { kind: 'static'; value: T } | { kind: 'path'; path: JsonPath; default?: T | undefined };

export interface JwtClaimsMap {
  allowedRoles: ClaimsMapValue<string[]>;
  defaultRole: ClaimsMapValue<string>;
  /** Other session variables by lower-cased name. */
  other: Record<string, ClaimsMapValue<string>>;
}

/** Where the Hasura claims live in the token. */
export type JwtClaimsLocation =
  | { kind: 'namespace'; namespace: string; format: JwtClaimsFormat }
  | { kind: 'namespace_path'; path: JsonPath; format: JwtClaimsFormat }
  | { kind: 'claims_map'; map: JwtClaimsMap };

export interface JwtConfig {
  type: JwtKeyType;
  /** The only `alg` a token may carry. */
  algorithm: JwsAlgorithm;
  /** Shared secret (HS*) or public key (RS*, ES*, Ed25519). */
  key: KeyObject;
  claims: JwtClaimsLocation;
  /** Accepted `aud` values; when absent the audience is not checked. */
  audience?: readonly string[] | undefined;
  issuer?: string | undefined;
  /** Leeway for `exp` and `nbf`, in seconds (0 by default). */
  allowedSkewSeconds: number;
  header: JwtHeaderConfig;
}

/** A HASURA_GRAPHQL_JWT_SECRET that cannot be used; the engine must not start. */
export class JwtConfigError extends Error {
  override name = 'JwtConfigError';
  constructor(detail: string) {
    super(`HASURA_GRAPHQL_JWT_SECRET: ${detail}`);
  }
}

const HMAC_BITS: Record<string, number> = { HS256: 256, HS384: 384, HS512: 512 };
const EC_CURVES: Record<string, string> = {
  ES256: 'prime256v1',
  ES384: 'secp384r1',
  ES512: 'secp521r1',
};

/** Parses the raw env value (a JSON string) or an already parsed object. Throws JwtConfigError. */
export function parseJwtConfig(input: unknown): JwtConfig {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch (error) {
      throw new JwtConfigError(`not valid JSON (${(error as Error).message})`);
    }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new JwtConfigError('expected a JSON object like {"type": "HS256", "key": "..."}');
  }
  const o = raw as Record<string, unknown>;
  const get = (name: string): unknown => (o[name] === null ? undefined : o[name]);

  // key / jwk_url
  const rawKey = get('key');
  if (get('jwk_url') !== undefined) {
    if (rawKey !== undefined) throw new JwtConfigError('key, jwk_url both cannot be present');
    throw new JwtConfigError('jwk_url is not supported by this engine; configure "type" and "key"');
  }
  if (rawKey === undefined) throw new JwtConfigError('key and jwk_url both cannot be empty');
  if (typeof rawKey !== 'string') throw new JwtConfigError('"key" must be a string');
  const type = get('type');
  if (type === undefined) throw new JwtConfigError('"type" is required when "key" is given');
  if (typeof type !== 'string' || !(JWT_KEY_TYPES as readonly string[]).includes(type)) {
    throw new JwtConfigError(
      `Invalid JWK: Key type: ${typeof type === 'string' ? type : JSON.stringify(type)} is not supported (supported: ${JWT_KEY_TYPES.join(', ')})`,
    );
  }
  const keyType = type as JwtKeyType;
  const key = parseKey(keyType, rawKey);

  // claims location
  const claimsNs = get('claims_namespace');
  const claimsNsPath = get('claims_namespace_path');
  const claimsFormat = get('claims_format') ?? 'json';
  if (claimsFormat !== 'json' && claimsFormat !== 'stringified_json') {
    throw new JwtConfigError('"claims_format" must be "json" or "stringified_json"');
  }
  if (claimsNs !== undefined && claimsNsPath !== undefined) {
    throw new JwtConfigError('claims_namespace and claims_namespace_path both cannot be set');
  }
  let claims: JwtClaimsLocation;
  const claimsMap = get('claims_map');
  if (claimsMap !== undefined) {
    claims = { kind: 'claims_map', map: parseClaimsMap(claimsMap) };
  } else if (claimsNsPath !== undefined) {
    if (typeof claimsNsPath !== 'string')
      throw new JwtConfigError('"claims_namespace_path" must be a string');
    let path: JsonPath;
    try {
      path = parseJsonPath(claimsNsPath);
    } catch (error) {
      throw new JwtConfigError(
        `invalid JSON path claims_namespace_path error: ${(error as Error).message}`,
      );
    }
    claims = { kind: 'namespace_path', path, format: claimsFormat };
  } else {
    if (claimsNs !== undefined && typeof claimsNs !== 'string') {
      throw new JwtConfigError('"claims_namespace" must be a string');
    }
    claims = {
      kind: 'namespace',
      namespace: claimsNs ?? DEFAULT_CLAIMS_NAMESPACE,
      format: claimsFormat,
    };
  }

  // audience / issuer / skew / header
  const audience = get('audience');
  let audiences: string[] | undefined;
  if (typeof audience === 'string') audiences = [audience];
  else if (Array.isArray(audience) && audience.every((a) => typeof a === 'string'))
    audiences = audience;
  else if (audience !== undefined)
    throw new JwtConfigError('"audience" must be a string or a list of strings');

  const issuer = get('issuer');
  if (issuer !== undefined && typeof issuer !== 'string')
    throw new JwtConfigError('"issuer" must be a string');

  const skew = get('allowed_skew');
  if (skew !== undefined && (typeof skew !== 'number' || !Number.isFinite(skew))) {
    throw new JwtConfigError('"allowed_skew" must be a number of seconds');
  }

  return {
    type: keyType,
    algorithm: keyType === 'Ed25519' ? 'EdDSA' : keyType,
    key,
    claims,
    audience: audiences,
    issuer,
    // Hasura (jose) applies the skew in absolute terms.
    allowedSkewSeconds: Math.abs(skew ?? 0),
    header: parseHeader(get('header')),
  };
}

function parseKey(type: JwtKeyType, rawKey: string): KeyObject {
  const bits = HMAC_BITS[type];
  if (bits !== undefined) {
    const secret = Buffer.from(rawKey, 'utf8');
    if (secret.length < bits / 8) {
      throw new JwtConfigError(
        `Invalid JWK: Key size too small; should be atleast ${bits / 8} characters`,
      );
    }
    return createSecretKey(secret);
  }
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(rawKey)) {
    throw new JwtConfigError(
      'Invalid JWK: "key" must be a public key or certificate, not a private key',
    );
  }
  let key: KeyObject;
  try {
    key = rawKey.includes('-----BEGIN CERTIFICATE-----')
      ? new X509Certificate(rawKey).publicKey
      : createPublicKey(rawKey);
  } catch (error) {
    throw new JwtConfigError(`Invalid JWK: Could not decode PEM: ${(error as Error).message}`);
  }
  const actual = key.asymmetricKeyType;
  if (type.startsWith('RS')) {
    if (actual !== 'rsa')
      throw new JwtConfigError(`Invalid JWK: ${type} needs an RSA public key, got ${actual}`);
  } else if (type === 'Ed25519') {
    if (actual !== 'ed25519')
      throw new JwtConfigError(`Invalid JWK: Ed25519 needs an Ed25519 public key, got ${actual}`);
  } else {
    const curve = EC_CURVES[type]!;
    if (actual !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== curve) {
      throw new JwtConfigError(`Invalid JWK: ${type} needs an EC public key on curve ${curve}`);
    }
  }
  return key;
}

function parseHeader(value: unknown): JwtHeaderConfig {
  if (value === undefined) return { type: 'Authorization' };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new JwtConfigError('"header" must be an object like {"type": "Cookie", "name": "..."}');
  }
  const { type, name } = value as Record<string, unknown>;
  const kind = typeof type === 'string' ? type.toLowerCase() : undefined;
  if (kind === 'authorization') return { type: 'Authorization' };
  if (kind === 'cookie' || kind === 'customheader') {
    if (typeof name !== 'string' || name === '') {
      throw new JwtConfigError(`"header.name" is required for header type ${String(type)}`);
    }
    return kind === 'cookie'
      ? { type: 'Cookie', name }
      : { type: 'CustomHeader', name: name.toLowerCase() };
  }
  throw new JwtConfigError("expected 'type' is 'Authorization' or 'Cookie' or 'CustomHeader'");
}

function parseClaimsMap(value: unknown): JwtClaimsMap {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new JwtConfigError('"claims_map" must be an object');
  }
  const entries = new Map<string, unknown>();
  for (const [k, v] of Object.entries(value)) entries.set(k.toLowerCase(), v);

  const take = (name: string): unknown => {
    if (!entries.has(name))
      throw new JwtConfigError(`claims_map: ${name} is expected but not found`);
    const v = entries.get(name);
    entries.delete(name);
    return v;
  };
  const isRoleList = (v: unknown): v is string[] =>
    Array.isArray(v) && v.every((r) => typeof r === 'string' && r !== '');
  const isRole = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const isText = (v: unknown): v is string => typeof v === 'string';

  const allowedRoles = parseMapValue(
    take('x-hasura-allowed-roles'),
    isRoleList,
    'x-hasura-allowed-roles',
    'a list of role names',
  );
  const defaultRole = parseMapValue(
    take('x-hasura-default-role'),
    isRole,
    'x-hasura-default-role',
    'a role name',
  );
  const other: Record<string, ClaimsMapValue<string>> = {};
  for (const [name, v] of entries) other[name] = parseMapValue(v, isText, name, 'a string');
  return { allowedRoles, defaultRole, other };
}

function parseMapValue<T>(
  value: unknown,
  isValue: (v: unknown) => v is T,
  name: string,
  expected: string,
): ClaimsMapValue<T> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { path, default: dflt } = value as Record<string, unknown>;
    if (typeof path !== 'string')
      throw new JwtConfigError(`claims_map.${name}: "path" must be a JSON path string`);
    let parsed: JsonPath;
    try {
      parsed = parseJsonPath(path);
    } catch (error) {
      throw new JwtConfigError(
        `claims_map.${name}: invalid JSON path: ${(error as Error).message}`,
      );
    }
    if (dflt !== undefined && dflt !== null && !isValue(dflt)) {
      throw new JwtConfigError(`claims_map.${name}: "default" must be ${expected}`);
    }
    return { kind: 'path', path: parsed, default: dflt ?? undefined };
  }
  if (!isValue(value))
    throw new JwtConfigError(
      `claims_map.${name} must be ${expected} or {"path": ..., "default"?: ...}`,
    );
  return { kind: 'static', value };
}

/** How a claims location is named in Hasura's error messages. */
export function describeClaimsLocation(claims: JwtClaimsLocation): string {
  switch (claims.kind) {
    case 'namespace':
      return `claims_namespace ${claims.namespace}`;
    case 'namespace_path':
      return `claims_namespace_path ${encodeJsonPath(claims.path)}`;
    case 'claims_map':
      return 'claims_map';
  }
}
