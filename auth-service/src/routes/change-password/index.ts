import { Router } from 'express';

import type { AppContext } from '#src/context';
import { changePassword } from './handler.ts';

export function changePasswordRoutes(ctx: AppContext): Router {
  return Router().post('/change-password', (req, res) => changePassword(ctx, req, res));
}
