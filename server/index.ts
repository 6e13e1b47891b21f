// The package's main entry: createDocsApi(options?) → { handler, start(), stop() }. `start()` does what
// `npm start` does before it listens (takes the DATA_DIR, opens and migrates the database, bootstraps a
// fresh one, starts the jobs); `handler` serves the API in a host's Express (or any Connect-style) app,
// relative to where it is mounted; `stop()` finishes the jobs and closes the storage. The standalone
// server (server/main.ts) is a caller of this factory like any host: it listens with `app`, the whole
// server (the API under /v1, health, metrics, published sites, sign-in, docs). Options default to the
// environment variables the server reads (server/config.ts), so `createDocsApi()` serves what `npm start` would.
import { mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import cors from 'cors';
import { createApi, type Api } from './api.js';
import { createApp, type App } from './app.js';
import { blobStoreFrom, configureBlobStore } from './blobs/store.js';
import { bootstrapIfEmpty, type BootstrapResult } from './auth/bootstrap.js';
import { runDataMigrations } from './data-migrations/index.js';
import { loadConfig, type Config } from './config.js';
import { createDb, type Database } from './db/client.js';
import type { Tracing } from './telemetry/tracing.js';
import { errorBody } from './http/errors.js';
import { sendJson } from './http/node-http.js';
import { RATE_LIMIT_HEADERS } from './http/rate-limit.js';
import type { JobRunner } from './jobs/runner.js';
import { startJobs } from './jobs/start.js';
import { createServerLogger } from './operating/logger.js';
import { createMetrics, type Metrics } from './operating/metrics.js';
import { createRateLimiter, type RateLimiter } from './operating/rate-limit.js';
import { setScriptUrls } from './runtime/script-runtime.js';
import { readSamlSigning } from './sso/signing-key.js';
import type { Urls } from './urls.js';
import { lockStorage, type StorageLock } from './storage-lock.js';

export interface DocsApiOptions {
  /** The environment to read the configuration from; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Settings over those read from `env`. */
  config?: Partial<Config>;
  /** The host's logger (pino); default the server's own (JSON lines, or pretty on a terminal). */
  logger?: Logger;
  /** The host's prom-client registry: the API's metrics join it (the host serves the scrape and the process metrics). */
  registry?: Registry;
  /** Where the API is mounted when the host does not say (`req.baseUrl`, which Express sets and Connect does not). */
  mountPath?: string;
  /**
   * Called when another process took DATA_DIR from this one (it was frozen past the lock's stale threshold):
   * writing on would corrupt the data. Default: log it as fatal and exit the process at once.
   */
  onStorageLost?: (err: Error) => void;
}

export interface Started {
  /** The first organization, user and token, when `start()` found an empty database and set it up. */
  bootstrap?: BootstrapResult;
  /** The standalone server's whole request handler (the API under /v1 and everything around it). */
  app: App;
}

export interface DocsApi {
  /**
   * Connect-style middleware serving the API where it is mounted, with the routes beside it (SAML sign-in,
   * invitation join links, integration public endpoints) under the same mount; `next()` for every path
   * that is not the API's.
   */
  handler: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
  /** Connect-style middleware serving the published sites where it is mounted: at PUBLISHED_URL's path (e.g. `app.use('/docs', docsApi.sites)`). */
  sites: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
  /** Opens the storage (taking DATA_DIR, migrating), bootstraps an empty database, starts the jobs. Once; later calls return the same promise. */
  start(): Promise<Started>;
  /**
   * Claims no more jobs and waits for the one in progress (up to SHUTDOWN_TIMEOUT_MS), and for `until` (the
   * host's requests in flight) if given, then closes the storage and releases DATA_DIR.
   */
  stop(options?: { until?: Promise<unknown> }): Promise<void>;
  /** The configuration in effect. */
  config: Config;
  /** The logger in use (the host's, or the server's own). */
  logger: Logger;
}

interface Running {
  database: Database;
  storageLock?: StorageLock;
  jobs: JobRunner;
  rateLimiter?: RateLimiter;
  metrics: Metrics;
  api: Api;
  sites: DocsApi['sites'];
  tracing?: Tracing;
}

export function createDocsApi(options: DocsApiOptions = {}): DocsApi {
  const config: Config = { ...loadConfig(options.env ?? process.env), ...options.config };
  const logger = options.logger ?? createServerLogger(config.logLevel).logger;
  let starting: Promise<Started> | undefined;
  let running: Running | undefined;

  async function start(): Promise<Started> {
    let storageLock: StorageLock | undefined;
    if (config.storage.kind === 'pglite') {
      mkdirSync(config.storage.dataDir, { recursive: true });
      storageLock = await lockStorage(
        config.storage.dataDir,
        options.onStorageLost ??
          ((err) => {
            logger.fatal({ err }, 'lost the DATA_DIR lock; stopping at once');
            process.exit(1);
          }),
      );
    }
    // File bytes go to the configured backend; those moved elsewhere are still read where they are.
    configureBlobStore(blobStoreFrom(config.files));
    // Traces only when configured: the OpenTelemetry SDK is not even loaded otherwise.
    const tracing = config.traces ? (await import('./telemetry/tracing.js')).startTracing(config.traces) : undefined;
    const database = createDb(
      config.storage.kind === 'postgres'
        ? { ...config.storage, ...config.pool, tracer: tracing?.queries, onConnectionError: (err) => logger.warn({ reason: err.message }, 'PostgreSQL connection lost') }
        : { ...config.storage, tracer: tracing?.queries },
    );
    // Migrated and, when empty, bootstrapped under the start-up lock: processes started together on one
    // PostgreSQL take turns (one migrates and bootstraps, the others wait, then find both done).
    let bootstrap: BootstrapResult | undefined;
    let dataMigrated: Record<string, number> = {};
    const migrated = await database.migrate({
      onWait: () => logger.info('waiting for another process to finish migrating the database'),
      afterwards: async () => {
        dataMigrated = await runDataMigrations(database.db, {
          onBatch: (p) => logger.info({ migration: p.migration, table: p.table, rows: p.rows, changed: p.changed }, 'data migration: batch done'),
        });
        bootstrap = await bootstrapIfEmpty(database.db, config.bootstrapToken);
      },
    });
    logger.info({ applied: migrated.applied, waited: migrated.waited, dataMigrated }, 'database migrated');
    const jobs = await startJobs(database.db, logger.child({ component: 'jobs' }), {
      leaseMs: config.jobLeaseMs,
      retentionDays: config.jobRetentionDays,
      gitSyncLimits: config.gitSync,
      stopTimeoutMs: config.shutdownTimeoutMs,
      // Under the DATA_DIR lock no other process can hold a job: a `running` one is a crashed start's.
      soleProcess: config.storage.kind === 'pglite',
      // PGlite runs no autovacuum: the job stands in for it. PostgreSQL's own does the work there.
      vacuum: config.storage.kind === 'pglite',
    });
    // Counts shared through PostgreSQL by every process; on PGlite (one process) in memory.
    const rateLimiter =
      config.rateLimitPerMinute > 0
        ? createRateLimiter({
            perMinute: config.rateLimitPerMinute,
            shared: config.storage.kind === 'postgres' ? database.db : undefined,
            onSyncError: (err) => logger.warn({ reason: (err as Error).message }, 'rate limit: could not share the counts (kept for the next try)'),
          })
        : undefined;
    const metrics = createMetrics({ db: database.db, logger, registry: options.registry, processMetrics: !options.registry });
    const samlSigning = config.samlSigning && readSamlSigning(config.samlSigning);
    const appOptions = {
      db: database.db,
      logger,
      publicUrl: config.publicUrl,
      publishedUrl: config.publishedUrl,
      appUrl: config.appUrl,
      samlSigning,
      rateLimiter,
      metrics,
      metricsToken: config.metricsToken,
      trustProxy: config.trustProxy,
      cacheReads: config.cacheReads,
    };
    // The URLs of where the API is served, for what no request tells (jobs, the scripts of integrations, the
    // sites' links to the routes beside the API): the mount path given, else the first mount the handler
    // serves, else the standalone server's (`npm start`).
    let mounted: Urls | undefined;
    const api = createApi({
      ...appOptions,
      bases: { appUrl: config.appUrl, publishedUrl: config.publishedUrl },
      cors: cors({ exposedHeaders: ['Location', 'X-Request-Id', 'Retry-After', ...RATE_LIMIT_HEADERS] }),
      mountPath: options.mountPath,
      tracer: tracing?.requests,
      onMount: (urls) => {
        if (mounted || options.mountPath !== undefined) return;
        mounted = urls;
        setScriptUrls(urls);
      },
    });
    if (options.mountPath !== undefined) mounted = api.urlsFor(options.mountPath.replace(/\/$/, ''));
    setScriptUrls(mounted ?? api.standaloneUrls);
    const sites = api.sitesHandler(() => mounted ?? api.standaloneUrls);
    running = { database, storageLock, jobs, rateLimiter, metrics, api, sites, tracing };
    return { bootstrap, app: createApp({ ...appOptions, api }) };
  }

  /** A handler of the running API: 503 before `start()`, waiting while it runs, 503 once stopped. */
  const whenStarted =
    (of: (current: Running) => DocsApi['handler']): DocsApi['handler'] =>
    (req, res, next) => {
      if (running) return of(running)(req, res, next);
      if (!starting) {
        sendJson(req, res, 503, errorBody(503, 'The API is not started: call start() on the object createDocsApi() returned'));
        return;
      }
      starting.then(
        () => (running ? of(running)(req, res, next) : sendJson(req, res, 503, errorBody(503, 'The API is stopped'))),
        (err: unknown) => next(err),
      );
    };

  return {
    config,
    logger,
    start() {
      starting ??= start();
      return starting;
    },
    async stop({ until } = {}) {
      const current = running;
      if (!current) return;
      await Promise.all([current.jobs.stop(), until]);
      running = undefined;
      starting = undefined;
      await current.rateLimiter?.close();
      // A close that failed (PGlite could not flush its folder) is said, and the lock still released: the
      // process is stopping either way, and the next start reads what the folder holds.
      await current.database.close().catch((err: unknown) => logger.error({ err }, 'closing the database failed; its last writes may be lost'));
      await current.storageLock?.release();
      await current.tracing?.shutdown(); // the last spans sent
    },
    handler: whenStarted((current) => current.api.handler),
    sites: whenStarted((current) => current.sites),
  };
}

export type { Config } from './config.js';
export { StorageLocked } from './storage-lock.js';
