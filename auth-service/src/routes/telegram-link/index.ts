import { Router } from 'express';

import type { AppContext } from '#src/context';
import { createLink, linkStatus, unlink } from './handler.ts';

export function telegramLinkRoutes(ctx: AppContext): Router {
  return Router()
    .post('/telegram-link', (req, res) => createLink(ctx, req, res))
    .post('/telegram-link/status', (req, res) => linkStatus(ctx, req, res))
    .post('/telegram-unlink', (req, res) => unlink(ctx, req, res));
}
