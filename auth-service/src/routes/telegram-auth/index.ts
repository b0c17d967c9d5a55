import express, { Router } from 'express';

import type { AppContext } from '#src/context';
import { telegramAuth } from './handler.ts';

export function telegramAuthRoutes(ctx: AppContext): Router {
  return Router().post(
    '/telegram-auth',
    // Besides JSON, the raw initData may be the whole body.
    express.text({ type: 'text/plain', limit: '8kb', defaultCharset: 'utf-8' }),
    (req, res) => telegramAuth(ctx, req, res),
  );
}
