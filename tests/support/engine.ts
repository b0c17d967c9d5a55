import { createEngine, type Engine, type EngineOptions, type MetadataSource } from '@app/engine';

import { DEV_JWT_SECRET } from './jwt.ts';

export const TEST_ADMIN_SECRET = 'test-admin-secret';

export interface TestEngine {
  url: string;
  /** POSTs a GraphQL request and returns the HTTP status and parsed body. */
  graphql(
    query: string,
    options?: { headers?: Record<string, string>; variables?: Record<string, unknown> },
  ): Promise<{
    status: number;
    body: {
      data?: Record<string, unknown>;
      errors?: Array<{ message: string; extensions: { code: string; path: string } }>;
    };
  }>;
  close(): Promise<void>;
}

/**
 * A real engine on a free port, configured as in production (JWT, admin secret, anonymous
 * role); `overrides` for what a test compares (a feature off, observability on).
 */
export async function startTestEngine(
  databaseUrl: string,
  metadata: MetadataSource,
  overrides: Partial<EngineOptions> = {},
): Promise<TestEngine> {
  const engine: Engine = await createEngine({
    databaseUrl,
    metadata,
    adminSecret: TEST_ADMIN_SECRET,
    jwtSecret: DEV_JWT_SECRET,
    unauthorizedRole: 'anonymous',
    poolSize: 4,
    liveQueryRefetchIntervalMs: 200,
    ...overrides,
  });
  const { url } = await engine.listen(0);
  return {
    url,
    async graphql(query, options = {}) {
      const response = await fetch(`${url}/v1/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify({ query, variables: options.variables }),
      });
      return {
        status: response.status,
        body: (await response.json()) as Awaited<ReturnType<TestEngine['graphql']>>['body'],
      };
    },
    close: () => engine.close(),
  };
}
