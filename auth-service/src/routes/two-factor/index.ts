import { Router } from 'express';

import type { AppContext } from '#src/context';
import { twoFactor } from './handler.ts';

export function twoFactorRoutes(ctx: AppContext): Router {
  return Router().post('/two-factor', (req, res) => twoFactor(ctx, req, res));
}
