/*
 * `npm run bench:auth`: the auth service's throughput against its floors (PERFORMANCE.md
 * section 3, goal G6), side by side in one run.
 *
 * - kdf: raw argon2id verify/s in this process with 2 in flight (the floor for logins);
 * - login: POST /login through HTTP (argon2-bound) against the service in a child process;
 * - refresh: POST /refresh_tokens, each request with a fresh, pre-minted refresh token (the
 *   tokens are inserted straight into auth.refresh_tokens as hashes, one family each, so the
 *   bench measures rotation, not minting);
 * - healthz p99 while logins saturate, against its idle p99 (the event loop stays free).
 *
 * Rounds are interleaved (kdf, login, refresh) x3 and the medians reported. Each load is
 * bounded in time and count. Rate limits are lifted with AUTH_RATE_LIMIT_FACTOR. Results go to
 * bench-results/auth.json with a top-level `summary`.
 *
 * Environment: AUTH_BENCH_SECONDS (default 6 per load), AUTH_BENCH_DATABASE_URL (default: the
 * local PostgreSQL test server if it answers, else embedded PGlite).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';
import pg from 'pg';

import { hashPassword, verifyPassword } from '@app/auth-service/password';
import { DEFAULT_MIGRATIONS_DIR, migrateUp } from '@app/engine/database';

import { databaseTargets, type TestDatabase } from '../support/databases.ts';

import { loadAverage, machineEnvironment } from './harness.ts';
import { freePort, spawnTs, type Spawned } from '../support/processes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECONDS = Number(process.env['AUTH_BENCH_SECONDS'] ?? 6);
const ROUNDS = 3;
const EMAIL = 'bench@example.com';
const PASSWORD = 'Bench-password-2026';
const LOGIN_CONNECTIONS = 4;
const REFRESH_CONNECTIONS = 16;
/** Upper bound of refresh requests per round (and tokens minted for it). */
const REFRESH_MAX = 40_000;
const LOGIN_MAX = 5_000;
/** /healthz is probed at a light, fixed rate, so the probe itself does not load the box. */
const HEALTH_PROBE_RATE = 20;

interface Load {
  rps: number;
  requests: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function openDatabase(): Promise<{
  db: TestDatabase | { url: string; pool: pg.Pool; dispose(): Promise<void> };
  name: string;
}> {
  const given = process.env['AUTH_BENCH_DATABASE_URL'];
  if (given) {
    const pool = new pg.Pool({ connectionString: given, max: 4 });
    return { db: { url: given, pool, dispose: () => pool.end() }, name: 'AUTH_BENCH_DATABASE_URL' };
  }
  const target = databaseTargets.find((t) => t.name === 'postgres') ?? databaseTargets[0]!;
  return { db: await target.create(), name: target.name };
}

async function kdfRound(hash: string): Promise<number> {
  let done = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      if (!(await verifyPassword(hash, PASSWORD))) throw new Error('verify failed');
      done++;
    }
  };
  const started = performance.now();
  await Promise.all([worker(), worker()]);
  return done / ((performance.now() - started) / 1000);
}

async function load(
  url: string,
  connections: number,
  amount: number,
  request: () => { path: string; body?: string; method?: string },
  ratePerSecond?: number,
): Promise<Load> {
  const result = await autocannon({
    url,
    connections,
    duration: SECONDS,
    maxOverallRequests: amount,
    ...(ratePerSecond === undefined ? {} : { overallRate: ratePerSecond }),
    timeout: 10,
    requests: [
      {
        setupRequest: (base) => {
          const next = request();
          return {
            ...base,
            method: (next.method ?? 'POST') as 'POST',
            path: next.path,
            headers: { 'content-type': 'application/json' },
            ...(next.body === undefined ? {} : { body: next.body }),
          };
        },
      },
    ],
  });
  return {
    rps: result.requests.total / result.duration,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

async function mintRefreshTokens(pool: pg.Pool, userId: string, count: number): Promise<string[]> {
  const tokens = Array.from({ length: count }, () => randomBytes(32).toString('base64url'));
  for (let i = 0; i < tokens.length; i += 5_000) {
    const batch = tokens.slice(i, i + 5_000);
    await pool.query(
      `INSERT INTO auth.refresh_tokens (user_id, family_id, token_hash, expires_at)
       SELECT $1, gen_random_uuid(), h, now() + interval '1 day' FROM unnest($2::bytea[]) AS h`,
      [userId, batch.map((token) => createHash('sha256').update(token).digest())],
    );
  }
  return tokens;
}

async function main() {
  const loadAtStart = loadAverage();
  const { db, name: databaseName } = await openDatabase();
  let service: Spawned | undefined;
  try {
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    const hash = await hashPassword(PASSWORD);
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO public.portal_users (email, password_hash, is_verified_email) VALUES ($1, $2, true)
       ON CONFLICT ((lower(email))) DO UPDATE SET password_hash = EXCLUDED.password_hash, is_2fa = false
       RETURNING id`,
      [EMAIL, hash],
    );
    const userId = rows[0]!.id;

    const port = await freePort();
    service = spawnTs('auth-service/src/main.ts', [], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATABASE_URL: db.url,
        AUTH_PORT: String(port),
        AUTH_DB_POOL_SIZE: '8',
        AUTH_RATE_LIMIT_FACTOR: '1000000',
        LOG_LEVEL: 'warn',
      },
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ok = await fetch(`${url}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (i > 200 || service.child.exitCode !== null)
        throw new Error(`auth service did not start:\n${service.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const loginBody = JSON.stringify({ email: EMAIL, password: PASSWORD });
    // Warm-up: JIT, pool connections, argon2 threads.
    await kdfRound(hash);
    await load(url, LOGIN_CONNECTIONS, 50, () => ({ path: '/login', body: loginBody }));
    const healthIdle = await load(
      url,
      1,
      100_000,
      () => ({ path: '/healthz', method: 'GET' }),
      HEALTH_PROBE_RATE,
    );

    const rounds: Array<{ kdf: number; login: Load; refresh: Load; healthDuringLogin: Load }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const kdf = await kdfRound(hash);
      const [login, healthDuringLogin] = await Promise.all([
        load(url, LOGIN_CONNECTIONS, LOGIN_MAX, () => ({ path: '/login', body: loginBody })),
        load(url, 1, 100_000, () => ({ path: '/healthz', method: 'GET' }), HEALTH_PROBE_RATE),
      ]);
      const tokens = await mintRefreshTokens(db.pool, userId, REFRESH_MAX);
      let next = 0;
      const refresh = await load(url, REFRESH_CONNECTIONS, REFRESH_MAX, () => ({
        path: '/refresh_tokens',
        body: `{"refreshToken":"${tokens[next++ % tokens.length]!}"}`,
      }));
      await db.pool.query('DELETE FROM auth.refresh_tokens WHERE user_id = $1', [userId]);
      rounds.push({ kdf, login, refresh, healthDuringLogin });
      process.stdout.write(
        `round ${round + 1}: kdf ${kdf.toFixed(1)} verify/s | login ${login.rps.toFixed(1)}/s (non-2xx ${login.non2xx}) | refresh ${refresh.rps.toFixed(0)}/s (non-2xx ${refresh.non2xx}, p99 ${refresh.p99} ms) | healthz p99 ${healthDuringLogin.p99} ms under login\n`,
      );
    }

    const kdf = median(rounds.map((r) => r.kdf));
    const login = median(rounds.map((r) => r.login.rps));
    const refresh = median(rounds.map((r) => r.refresh.rps));
    const healthBusyP99 = median(rounds.map((r) => r.healthDuringLogin.p99));
    const failures = rounds.reduce(
      (sum, r) => sum + r.login.non2xx + r.login.errors + r.refresh.non2xx + r.refresh.errors,
      0,
    );
    // Interleaved rounds share the box's conditions, so the ratio is taken per round.
    const ratio = median(rounds.map((r) => r.login.rps / r.kdf));
    const summary = {
      login_vs_kdf_throughput: Number(ratio.toFixed(3)),
      refresh_per_s: Math.round(refresh),
      login_per_s: Number(login.toFixed(1)),
      kdf_verify_per_s: Number(kdf.toFixed(1)),
      refresh_p99_ms: median(rounds.map((r) => r.refresh.p99)),
      healthz_p99_idle_ms: healthIdle.p99,
      healthz_p99_during_login_ms: healthBusyP99,
      failed_requests: failures,
      goal_g6_login_ge_0_8_kdf: ratio >= 0.8,
    };
    const report = {
      summary,
      method: {
        rounds: ROUNDS,
        seconds_per_load: SECONDS,
        login_connections: LOGIN_CONNECTIONS,
        refresh_connections: REFRESH_CONNECTIONS,
        kdf_in_flight: 2,
        database: databaseName,
        refresh_tokens: 'pre-minted per round, one family each, one token per request',
        rate_limits: 'AUTH_RATE_LIMIT_FACTOR=1000000',
      },
      environment: machineEnvironment(loadAtStart),
      rounds,
      recorded_at: new Date().toISOString(),
    };
    const out = path.join(root, 'bench-results', 'auth.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    const busy = report.environment.busy_note;
    if (busy !== undefined) process.stdout.write(`\nWARNING: ${busy}\n`);
    process.stdout.write(`\n${JSON.stringify(summary, null, 2)}\nwritten to ${out}\n`);
    if (failures > 0) process.exitCode = 1;
  } finally {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await db.dispose();
  }
}

await main();
