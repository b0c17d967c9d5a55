import { Router } from 'express';

import type { AppContext } from '#src/context';
import { resetPassword } from './handler.ts';

export function resetPasswordRoutes(ctx: AppContext): Router {
  return Router().post('/reset_password', (req, res) => resetPassword(ctx, req, res));
}
