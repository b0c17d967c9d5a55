import { Router } from 'express';

import type { AppContext } from '#src/context';
import { refreshTokens } from './handler.ts';

export function refreshTokensRoutes(ctx: AppContext): Router {
  return Router().post('/refresh_tokens', (req, res) => refreshTokens(ctx, req, res));
}
