// GET /metrics (outside /v1, not in the request log) and the middleware that measures every request for it.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { Router } from 'express';
import type { Metrics } from '../operating/metrics.js';
import { errorBody } from './errors.js';

/**
 * Counts the request in flight and, once answered, observes its duration by operation (`operationIdOf`,
 * asked then), method and status.
 */
export function measureRequest(metrics: Metrics, req: IncomingMessage, res: ServerResponse, operationIdOf: () => string | undefined): void {
  const started = performance.now();
  metrics.requestsInFlight.inc();
  res.once('close', () => {
    metrics.requestsInFlight.dec();
    metrics.requestDuration.observe({ operation: operationIdOf() ?? '', method: req.method ?? '', status: String(res.statusCode) }, (performance.now() - started) / 1000);
  });
}

/** `measureRequest` as Express middleware, for the routes outside /v1 (which answer no operation). */
export function measureRequests(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    measureRequest(metrics, req, res, () => undefined);
    next();
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Prometheus page; with `token`, only for `Authorization: Bearer <token>` (401 otherwise). */
export function metricsRoute(metrics: Metrics, token: string | undefined): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (token !== undefined) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!given || !sameSecret(given, token)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        return void res.status(401).json(errorBody(401, 'The metrics need the METRICS_TOKEN as a bearer token'));
      }
    }
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  return router;
}
