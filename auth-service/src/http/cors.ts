import type { NextFunction, Request, Response } from 'express';

import { AuthError } from '#src/errors';

/**
 * CORS with credentials for our own web and mini-app origins only. A request that names
 * another origin is refused outright (403), not merely left without CORS headers: with the
 * cookie mode on, that is also the CSRF defence. Requests without Origin (servers, curl) pass.
 */
export function cors(allowed: ReadonlySet<string>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('origin');
    if (origin === undefined) return next();
    if (!allowed.has(origin)) throw new AuthError('origin-not-allowed');
    res.set({
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      // A limited client reads how long to wait (a cross-origin script sees no other header).
      'access-control-expose-headers': 'retry-after',
    });
    if (req.method === 'OPTIONS') {
      res
        .set({
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers':
            'authorization, content-type, accept-language, x-request-id',
          'access-control-max-age': '600',
        })
        .status(204)
        .end();
      return;
    }
    next();
  };
}
