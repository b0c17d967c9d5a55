import { Router } from 'express';

import type { AppContext } from '#src/context';
import { login } from './handler.ts';

export function loginRoutes(ctx: AppContext): Router {
  return Router().post('/login', (req, res) => login(ctx, req, res));
}
