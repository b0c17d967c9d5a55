import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { sign } from '@telegram-apps/init-data-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEV_TELEGRAM_BOT_TOKEN } from '@app/shared/env';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { insertOrder, insertUser } from '../../support/fixtures.ts';
import { freePort, spawnTs, type Spawned } from '../../support/processes.ts';
import { jwtPayload, startAuth, type AuthServer } from '../auth/harness.ts';

/*
 * The development sandbox never hands out a staff session (issue 19, point 2). The stack as
 * `npm start` runs it without a bot token: the provisioned administrator, the bot with its
 * sandbox and the web server with its development launch (their own processes, as the
 * launcher starts them), and the auth service checking the public development token. Then the
 * same database started without the sandbox (a real bot token): nothing the sandbox made can
 * sign in any more.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const ADMIN = { email: 'owner@example.com', password: 'dev-only-owner-password' };
/** The sandbox's people: the developer and the one writing in the staff chat. */
const SANDBOX_DEVELOPER = 100000001;
const SANDBOX_STAFF_CHAT_USER = 100000099;
/** Someone a developer launches the mini-app as (`/telegram-app?user=…`). */
const LAUNCHED_USER = 100000123;
/** Staff whose accounts an administrator linked to their Telegram (decision 014). */
const MANAGER_TELEGRAM = 5550001;
const SECOND_ADMIN_TELEGRAM = 5550002;
/** A bot token of a real bot: what the stack checks once it runs without the sandbox. */
const REAL_BOT_TOKEN = '7100000001:AAreal-bot-token-for-the-sandbox-tests';

/** The roles an access token carries. */
const rolesOf = (accessToken: unknown): string[] =>
  (jwtPayload(accessToken)['https://hasura.io/jwt/claims'] as Record<string, string[]>)[
    'x-hasura-allowed-roles'
  ]!;

/** Launch data as Telegram signs it, for `user`, with `token`. */
const initDataFor = (user: number, token: string) =>
  sign(
    { user: { id: user, first_name: 'Someone', language_code: 'en' }, chat_type: 'private' },
    token,
    new Date(),
  );

/** Runs a script of the repository as `npm run …` does, to its end. */
async function runScript(entry: string, env: NodeJS.ProcessEnv): Promise<string> {
  const script = spawnTs(entry, [], { cwd: root, env });
  const code = await script.exited;
  if (code !== 0) throw new Error(`${entry} exited with ${code}:\n${script.output()}`);
  return script.output();
}

describe.each(databaseTargets)('the Telegram sandbox on $name', (target) => {
  let db: TestDatabase;
  let bot: Spawned | undefined;
  let web: Spawned | undefined;
  let webUrl: string;
  let auth: AuthServer;
  let baseEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    db = await target.create();
    const {
      DATABASE_URL: _database,
      TELEGRAM_BOT_TOKEN: _token,
      TELEGRAM_STAFF_CHAT_IDS: _chats,
      ...inherited
    } = process.env;
    baseEnv = {
      ...inherited,
      NODE_ENV: 'development',
      DATABASE_URL: db.url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
    };
    // `npm start` without a bot token: provisioned, then the bot runs its sandbox.
    await runScript('scripts/provision.ts', baseEnv);
    const botPort = await freePort();
    bot = spawnTs('src/main.ts', [], {
      cwd: path.join(root, 'bot'),
      env: { ...baseEnv, BOT_PORT: String(botPort) },
    });
    // Logged once the sandbox has prepared its accounts and started taking updates.
    await bot.waitFor(/updates by long polling/, 60_000);

    // An administrator linked these staff accounts to their own Telegram, as decision 014 says.
    const manager = await insertUser(db.pool);
    const secondAdmin = await insertUser(db.pool);
    await db.pool.query(
      `INSERT INTO roles (user_id, role_type) VALUES ($1, 'manager'), ($2, 'admin')`,
      [manager, secondAdmin],
    );
    await db.pool.query('UPDATE portal_users SET telegram_id = $2 WHERE id = $1', [
      manager,
      MANAGER_TELEGRAM,
    ]);
    await db.pool.query('UPDATE portal_users SET telegram_id = $2 WHERE id = $1', [
      secondAdmin,
      SECOND_ADMIN_TELEGRAM,
    ]);

    // The web server in development (the mini-app's launch signer), on the same database.
    const webPort = await freePort();
    web = spawnTs('server/main.ts', [], {
      cwd: path.join(root, 'web'),
      env: {
        ...baseEnv,
        WEB_PORT: String(webPort),
        WEB_SERVE: 'dev',
        LOG_LEVEL: 'warn',
        // No engine: the mini-app's page comes without the catalog.
        PUBLIC_GRAPHQL_URL: 'http://127.0.0.1:9/v1/graphql',
      },
    });
    webUrl = `http://127.0.0.1:${webPort}`;
    const deadline = Date.now() + 120_000;
    while (
      !(await fetch(`${webUrl}/healthz`).then(
        (reply) => reply.ok,
        () => false,
      ))
    ) {
      if (web.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`the web server did not start:\n${web.output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    // The auth service as development runs it: checking the development bot token.
    auth = await startAuth(db, undefined, {
      env: { NODE_ENV: 'development', TELEGRAM_BOT_TOKEN: DEV_TELEGRAM_BOT_TOKEN },
    });
  }, 180_000);

  afterAll(async () => {
    for (const child of [bot, web]) {
      if (child && child.child.exitCode === null) {
        child.child.kill('SIGTERM');
        await child.exited;
      }
    }
    await auth?.close();
    await db?.dispose();
  });

  /** Every way a development launch of `user` can reach /telegram-auth, and the answers. */
  async function devLaunchSignIns(user: number) {
    const answers: Array<{ how: string; status: number; roles: string[] | undefined }> = [];
    const signIn = async (how: string, initData: string) => {
      const reply = await auth.post('/telegram-auth', { initData });
      answers.push({
        how,
        status: reply.status,
        roles: reply.status === 200 ? rolesOf(reply.body['accessToken']) : undefined,
      });
    };
    const launch = await fetch(`${webUrl}/telegram-app/dev-launch?user=${user}`);
    const launchText = await launch.text();
    if (launch.ok) {
      await signIn('dev-launch', new URLSearchParams(launchText).get('tgWebAppData')!);
    }
    const page = await (await fetch(`${webUrl}/telegram-app?user=${user}`)).text();
    const settings = JSON.parse(/window\.__MINIAPP__=(\{.*?\});<\/script>/.exec(page)![1]!) as {
      devLaunchParams?: string;
    };
    if (settings.devLaunchParams) {
      await signIn('page', new URLSearchParams(settings.devLaunchParams).get('tgWebAppData')!);
    }
    // The development token is public: anyone can sign launch data with it.
    await signIn('signed by anyone', initDataFor(user, DEV_TELEGRAM_BOT_TOKEN));
    return {
      launchStatus: launch.status,
      launchText,
      hasPageLaunch: !!settings.devLaunchParams,
      answers,
    };
  }

  it('security regression: a development launch for a staff member never yields a staff role', async () => {
    for (const user of [SANDBOX_STAFF_CHAT_USER, MANAGER_TELEGRAM, SECOND_ADMIN_TELEGRAM]) {
      const { launchStatus, launchText, hasPageLaunch, answers } = await devLaunchSignIns(user);
      for (const answer of answers) {
        // A customer's session has the user role only (staff: administrator, manager).
        const beyondUser = (answer.roles ?? []).filter((role) => role !== 'user');
        expect(beyondUser, `${user} ${answer.how}`).toEqual([]);
      }
      if (user !== SANDBOX_STAFF_CHAT_USER) {
        // A staff member's Telegram: no launch data is signed, and no session comes of it.
        expect(launchStatus, String(user)).toBe(403);
        expect(launchText).not.toContain('tgWebAppData');
        expect(hasPageLaunch).toBe(false);
        expect(answers.map((answer) => answer.status)).toEqual([401]);
      }
    }
    // No staff account is linked to a Telegram id of the sandbox's.
    const { rows } = await db.pool.query(
      `SELECT u.email, u.telegram_id::text FROM portal_users u
        WHERE u.telegram_id = ANY($1) AND EXISTS (SELECT 1 FROM roles r WHERE r.user_id = u.id)`,
      [[SANDBOX_DEVELOPER, SANDBOX_STAFF_CHAT_USER]],
    );
    expect(rows).toEqual([]);
  });

  it('security regression: no sandbox account can become staff', async () => {
    const { answers } = await devLaunchSignIns(LAUNCHED_USER);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    for (const user of [SANDBOX_DEVELOPER, SANDBOX_STAFF_CHAT_USER, LAUNCHED_USER]) {
      const account = await db.pool.query<{ id: string }>(
        'SELECT id FROM portal_users WHERE telegram_id = $1',
        [user],
      );
      expect(account.rows, String(user)).toHaveLength(1);
      await expect(
        db.pool.query(`INSERT INTO roles (user_id, role_type) VALUES ($1, 'manager')`, [
          account.rows[0]!.id,
        ]),
        String(user),
      ).rejects.toThrow(/sandbox/);
    }
    // The developer's launch is an ordinary customer's session.
    const { answers: developer } = await devLaunchSignIns(SANDBOX_DEVELOPER);
    expect(developer.map((answer) => [answer.status, answer.roles])).toEqual(
      developer.map(() => [200, ['user']]),
    );
  });

  it('security regression: a sandbox account cannot sign in where a real bot token is checked', async () => {
    const production = await startAuth(db, undefined, {
      env: { NODE_ENV: 'development', TELEGRAM_BOT_TOKEN: REAL_BOT_TOKEN },
    });
    try {
      for (const user of [SANDBOX_DEVELOPER, LAUNCHED_USER]) {
        const reply = await production.post('/telegram-auth', {
          initData: initDataFor(user, REAL_BOT_TOKEN),
        });
        expect(reply.status, String(user)).toBe(403);
        expect(reply.body['code']).toBe('user-disabled');
      }
      // Staff who linked their own Telegram sign in with it where Telegram really signs.
      const manager = await production.post('/telegram-auth', {
        initData: initDataFor(MANAGER_TELEGRAM, REAL_BOT_TOKEN),
      });
      expect(manager.status).toBe(200);
      expect(rolesOf(manager.body['accessToken'])).toEqual(expect.arrayContaining(['manager']));
    } finally {
      await production.close();
    }
  });

  it('security regression: started again without the sandbox, the database keeps no sandbox link', async () => {
    // The developer's sandbox session.
    const signedIn = await auth.post('/telegram-auth', {
      initData: initDataFor(SANDBOX_DEVELOPER, DEV_TELEGRAM_BOT_TOKEN),
    });
    expect(signedIn.status).toBe(200);
    const developer = await db.pool.query<{ id: string }>(
      'SELECT id FROM portal_users WHERE telegram_id = $1',
      [SANDBOX_DEVELOPER],
    );
    // The developer tried an order in the sandbox: the order stays, the account's way in goes.
    const order = await insertOrder(db.pool, developer.rows[0]!.id);

    bot!.child.kill('SIGTERM');
    await bot!.exited;
    // The stack starts with a real bot token: no sandbox.
    const output = await runScript('scripts/provision.ts', {
      ...baseEnv,
      TELEGRAM_BOT_TOKEN: REAL_BOT_TOKEN,
    });

    const linked = await db.pool.query<{ telegram_id: string }>(
      'SELECT telegram_id::text FROM portal_users WHERE telegram_id IS NOT NULL ORDER BY 1',
    );
    // Only the links staff made themselves are left.
    expect(linked.rows.map((row) => row.telegram_id)).toEqual(
      [MANAGER_TELEGRAM, SECOND_ADMIN_TELEGRAM].map(String),
    );
    const marks = await db.pool.query<{ n: number }>(
      `SELECT CASE WHEN to_regclass('bot.sandbox_accounts') IS NULL THEN 0
                   ELSE (SELECT count(*)::int FROM bot.sandbox_accounts) END AS n`,
    );
    expect(marks.rows[0]!.n).toBe(0);
    // The order's account is kept for its history, disabled, its sessions ended.
    const kept = await db.pool.query<{ is_disabled: boolean; telegram_id: string | null }>(
      'SELECT is_disabled, telegram_id FROM portal_users WHERE id = $1',
      [developer.rows[0]!.id],
    );
    expect(kept.rows).toEqual([{ is_disabled: true, telegram_id: null }]);
    const refreshed = await auth.post('/refresh_tokens', {
      refreshToken: signedIn.body['refreshToken'],
    });
    expect(refreshed.status).toBe(401);
    const orders = await db.pool.query('SELECT 1 FROM transactions WHERE id = $1', [order.id]);
    expect(orders.rowCount).toBe(1);
    // The administrator's account is untouched, and unlinked.
    const admin = await db.pool.query<{ telegram_id: string | null }>(
      `SELECT u.telegram_id FROM portal_users u WHERE u.email = $1`,
      [ADMIN.email],
    );
    expect(admin.rows).toEqual([{ telegram_id: null }]);
    expect(output).toMatch(
      /Telegram sandbox accounts removed \(\d+ deleted, 1 unlinked and disabled\)/,
    );

    // Whoever really has the developer's Telegram id now gets an account of their own.
    const production = await startAuth(db, undefined, {
      env: { NODE_ENV: 'development', TELEGRAM_BOT_TOKEN: REAL_BOT_TOKEN },
    });
    try {
      const fresh = await production.post('/telegram-auth', {
        initData: initDataFor(SANDBOX_DEVELOPER, REAL_BOT_TOKEN),
      });
      expect(fresh.status).toBe(200);
      expect(jwtPayload(fresh.body['accessToken'])['userId']).not.toBe(developer.rows[0]!.id);
      expect(rolesOf(fresh.body['accessToken'])).toEqual(['user']);
    } finally {
      await production.close();
    }
  });
});
