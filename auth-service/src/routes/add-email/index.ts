import { Router } from 'express';

import type { AppContext } from '#src/context';
import { addEmail } from './handler.ts';

export function addEmailRoutes(ctx: AppContext): Router {
  return Router().post('/add-email', (req, res) => addEmail(ctx, req, res));
}
