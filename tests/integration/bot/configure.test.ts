import type { AddressInfo } from 'node:net';

import express from 'express';
import { Bot } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { configureBot } from '@app/bot/bot';
import { parseBotEnv } from '@app/bot/env';
import type { Logger } from '@app/shared/log';

import { MINIAPP_URL, TOKEN } from './harness.ts';

/*
 * A Bot API server without the optional methods (a test server, an older self-hosted one)
 * answers them as Telegram answers an unknown method: 404 "Not Found: method not found". The
 * bot then runs without its command list and menu button, and says so, instead of exiting.
 */

describe('the bot on a Bot API server without the optional methods', () => {
  let server: ReturnType<express.Express['listen']>;
  let apiRoot: string;
  beforeAll(async () => {
    const app = express().all('/:token/:method', (_, res) => {
      res
        .status(404)
        .json({ ok: false, error_code: 404, description: 'Not Found: method not found' });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sets what it can and warns about the rest', async () => {
    const warnings: unknown[] = [];
    const logger = { warn: (fields: unknown) => warnings.push(fields) } as unknown as Logger;
    const bot = new Bot(TOKEN, { client: { apiRoot } });
    const env = parseBotEnv({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://unused',
      TELEGRAM_BOT_TOKEN: TOKEN,
      BOT_UPDATES: 'polling',
      MINIAPP_URL,
    });
    await expect(configureBot(bot, env, logger)).resolves.toBeUndefined();
    expect(warnings).toContainEqual({
      method: 'setMyCommands',
      error: 'Not Found: method not found',
    });
    expect(warnings).toContainEqual({
      method: 'setChatMenuButton',
      error: 'Not Found: method not found',
    });
  });
});
