import { Router } from 'express';

import type { AppContext } from '#src/context';
import { quickAuth } from './handler.ts';

export function quickAuthRoutes(ctx: AppContext): Router {
  return Router().post('/quick-auth', (req, res) => quickAuth(ctx, req, res));
}
