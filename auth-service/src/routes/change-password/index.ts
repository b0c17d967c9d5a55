import { Router } from 'express';

import type { AppContext } from '#src/context';
import { changePassword, checkResetToken } from './handler.ts';

export function changePasswordRoutes(ctx: AppContext): Router {
  return Router()
    .post('/change-password', (req, res) => changePassword(ctx, req, res))
    .post('/change-password/check', (req, res) => checkResetToken(ctx, req, res));
}
