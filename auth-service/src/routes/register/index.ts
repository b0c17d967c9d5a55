import { Router } from 'express';

import type { AppContext } from '#src/context';
import { register } from './handler.ts';

export function registerRoutes(ctx: AppContext): Router {
  return Router().post('/register', (req, res) => register(ctx, req, res));
}
