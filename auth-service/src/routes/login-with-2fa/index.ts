import { Router } from 'express';

import type { AppContext } from '#src/context';
import { loginWith2fa } from './handler.ts';

export function loginWith2faRoutes(ctx: AppContext): Router {
  return Router().post('/login_with_2fa', (req, res) => loginWith2fa(ctx, req, res));
}
