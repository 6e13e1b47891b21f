// Probes for load balancers and orchestrators, outside /v1 and without authentication:
//   GET /health  liveness: the process answers HTTP. Touches no database, so a database outage does not
//                make an orchestrator restart healthy processes.
//   GET /ready   readiness: the database answers and every migration of this build is applied, and the
//                process is not shutting down. 503 (error body, Retry-After) otherwise, so a load balancer
//                sends its traffic elsewhere. The file store (server/blobs/) must answer too.
import { Router } from 'express';
import { checkBlobStore } from '../blobs/blobs.js';
import type { Db } from '../db/client.js';
import { databaseReady } from '../db/client.js';
import { errorBody, RETRY_AFTER_SECONDS } from './errors.js';

/** The longest /ready waits for the database before answering 503: a probe must answer within its own deadline. */
const READY_TIMEOUT_MS = 2000;

/** The apps shutting down: per app, so that another app of the same process (a test's, a host's) is not. */
const drainingApps = new WeakSet<object>();

/**
 * From now on the app's /ready answers 503: the load balancer stops sending new requests while those in
 * flight finish. Set by server/main.ts on SIGTERM.
 */
export function markDraining(app: object): void {
  drainingApps.add(app);
}

function notReady(res: import('express').Response, message: string) {
  res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.status(503).json(errorBody(503, message));
}

/** The probes of the app `owner()` returns (the one markDraining names). */
export function healthRoutes(db: Db, owner: () => object): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (drainingApps.has(owner())) return notReady(res, 'The server is shutting down');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS)));
    const outcome = await Promise.race([databaseReady(db).then((ok) => (ok ? 'ready' : 'migrations')).catch(() => 'unreachable' as const), timeout]);
    clearTimeout(timer);
    if (outcome === 'ready') {
      // Files are read and written on most pages: a store that does not answer makes the process not ready.
      const store = await Promise.race([checkBlobStore(db).then(() => 'ready' as const).catch(() => 'unreachable' as const), new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS)))]);
      clearTimeout(timer);
      if (store === 'ready') return void res.json({ status: 'ready' });
      return notReady(res, 'The file store is unavailable');
    }
    if (outcome === 'migrations') return notReady(res, 'The database schema is older than this server: migrations are pending');
    notReady(res, 'The database is unavailable');
  });
  return router;
}
