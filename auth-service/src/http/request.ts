import type { NextFunction, Request, Response } from 'express';

import type { Logger } from '@app/shared/log';
import { requestObservability, type ServiceMetrics } from '@app/shared/observability';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request's id (x-request-id, ours if the caller sent none or a bad one). */
    id: string;
    /** The service logger bound to this request's id. */
    log: Logger;
  }
}

/**
 * Request id, per-request logger and the access-log line with the request counted in the
 * service's metrics (@app/shared/observability: 401 and 403 at warn, as attacks show up there),
 * and headers every answer of an auth service needs.
 */
export function requestContext(logger: Logger, metrics: ServiceMetrics) {
  const observe = requestObservability({ logger, metrics });
  return (req: Request, res: Response, next: NextFunction) => {
    res.set({
      // Answers carry tokens: never cache them anywhere.
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'x-content-type-options': 'nosniff',
      vary: 'Origin',
    });
    observe(req, res, next);
  };
}
