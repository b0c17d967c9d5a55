import { randomUUID } from 'node:crypto';

import type { NextFunction, Request, Response } from 'express';

import type { Logger } from '@app/shared/log';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request's id (x-request-id, ours if the caller sent none or a bad one). */
    id: string;
    /** The service logger bound to this request's id. */
    log: Logger;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Request id, per-request logger, one access-log line per response (401 and 403 at warn, as
 * attacks show up there), and headers every answer of an auth service needs.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.get('x-request-id');
    req.id = given && REQUEST_ID.test(given) ? given : randomUUID();
    req.log = logger.child({ reqId: req.id });
    res.set({
      'x-request-id': req.id,
      // Answers carry tokens: never cache them anywhere.
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'x-content-type-options': 'nosniff',
      vary: 'Origin',
    });
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const entry = { method: req.method, path: req.path, status: res.statusCode, ms };
      if (res.statusCode === 401 || res.statusCode === 403) req.log.warn(entry, 'refused');
      else if (res.statusCode >= 500) req.log.error(entry, 'failed');
      else req.log.debug(entry, 'answered');
    });
    next();
  };
}
