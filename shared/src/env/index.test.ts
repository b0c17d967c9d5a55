import * as z from 'zod';
import { describe, expect, it } from 'vitest';

import { InvalidEnvironmentError, NodeEnv, parseEnv, port, secret } from './index.ts';

const Schema = z.object({
  NODE_ENV: NodeEnv,
  AUTH_PORT: port(4000),
  JWT_SECRET: secret('dev-only-jwt-secret-0123456789', 32),
});

describe('parseEnv', () => {
  it('fills development defaults and coerces numbers', () => {
    expect(parseEnv(Schema, {})).toEqual({
      NODE_ENV: 'development',
      AUTH_PORT: 4000,
      JWT_SECRET: 'dev-only-jwt-secret-0123456789',
    });
    expect(parseEnv(Schema, { AUTH_PORT: '4010' }).AUTH_PORT).toBe(4010);
  });

  it('treats an empty value as unset', () => {
    expect(parseEnv(Schema, { AUTH_PORT: '' }).AUTH_PORT).toBe(4000);
  });

  it('names every invalid variable', () => {
    const attempt = () =>
      parseEnv(Schema, { AUTH_PORT: '99999', JWT_SECRET: 'short', NODE_ENV: 'staging' });
    expect(attempt).toThrow(InvalidEnvironmentError);
    try {
      attempt();
    } catch (error) {
      expect(Object.keys((error as InvalidEnvironmentError).issues).sort()).toEqual([
        'AUTH_PORT',
        'JWT_SECRET',
        'NODE_ENV',
      ]);
    }
  });

  it('refuses a development secret in production, set or defaulted', () => {
    expect(() => parseEnv(Schema, { NODE_ENV: 'production' })).toThrow(
      /JWT_SECRET: is a development default/,
    );
    expect(() =>
      parseEnv(Schema, { NODE_ENV: 'production', JWT_SECRET: 'dev-only-copied-from-env-example' }),
    ).toThrow(InvalidEnvironmentError);
  });

  it('refuses a development secret embedded in a larger value', () => {
    const Jwt = z.object({
      NODE_ENV: NodeEnv,
      JWT: z.string().default('{"type":"HS256","key":"dev-only-key-0123456789abcdef"}'),
    });
    expect(() => parseEnv(Jwt, { NODE_ENV: 'production' })).toThrow(
      /JWT: is a development default/,
    );
  });

  it('accepts a real secret in production', () => {
    const realSecret = 'k7Q2x9vLm3Pz8RtY4wNc6BfH1jDs5GaE';
    expect(parseEnv(Schema, { NODE_ENV: 'production', JWT_SECRET: realSecret }).JWT_SECRET).toBe(
      realSecret,
    );
  });

  it('only lets development secrets carry the prefix production looks for', () => {
    expect(() => secret('changeme')).toThrow();
  });
});
