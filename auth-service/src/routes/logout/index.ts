import { Router } from 'express';

import type { AppContext } from '#src/context';
import { logout } from './handler.ts';

export function logoutRoutes(ctx: AppContext): Router {
  return Router().post('/logout', (req, res) => logout(ctx, req, res));
}
