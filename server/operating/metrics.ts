// The metrics an operator scrapes from GET /metrics (Prometheus text format, prom-client). One registry per
// app (no global state: tests create several apps in one process). What is measured:
//   http_request_duration_seconds{operation,method,status}  histogram of every answered request
//   http_requests_in_flight                                  requests being served now
//   db_pool_connections{state="total"|"idle"}, db_pool_waiting_clients   the PostgreSQL pool (node-postgres)
//   pglite_queued_queries                                     queries waiting on the PGlite thread
//   jobs{kind,state}, jobs_oldest_due_seconds                 the pending jobs (queued, running), read at each scrape
//   rate_limit_refusals_total                                 requests answered 429
//   process_*, nodejs_*                                       prom-client's process metrics (CPU, memory, event loop lag, GC, handles)
import pg from 'pg';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { queryRows, type Db } from '../db/client.js';
import { PGliteThread } from '../db/pglite-thread.js';
import { sql } from 'drizzle-orm';

export interface Metrics {
  registry: Registry;
  requestDuration: Histogram<'operation' | 'method' | 'status'>;
  requestsInFlight: Gauge;
  rateLimitRefusals: Counter;
}

export interface MetricsOptions {
  db: Db;
  logger?: Logger;
  /** prom-client's process metrics (default true); they observe the whole process, so one app per process should have them. */
  processMetrics?: boolean;
  /** A host app's registry to add these metrics to (it then owns the process metrics and the scrape); default a new one. */
  registry?: Registry;
}

/** The connection pool or PGlite thread behind `db` (drizzle keeps the driver's client as `$client`). */
function driverOf(db: Db): unknown {
  return (db as unknown as { $client?: unknown }).$client;
}

export function createMetrics({ db, logger, processMetrics = true, registry = new Registry() }: MetricsOptions): Metrics {
  if (processMetrics) collectDefaultMetrics({ register: registry });

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by operation id (empty outside /v1), method and status.',
    labelNames: ['operation', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requestsInFlight = new Gauge({ name: 'http_requests_in_flight', help: 'Requests being served.', registers: [registry] });
  const rateLimitRefusals = new Counter({ name: 'rate_limit_refusals_total', help: 'Requests refused with 429 because their token or address was over its limit.', registers: [registry] });

  const driver = driverOf(db);
  if (driver instanceof pg.Pool) {
    const pool = driver;
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL connections of this process: all open ones (state="total") and those idle in the pool (state="idle").',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_clients',
      help: 'Queries waiting for a free PostgreSQL connection of this process.',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  } else if (driver instanceof PGliteThread) {
    const thread = driver;
    new Gauge({
      name: 'pglite_queued_queries',
      help: 'Queries sent to the PGlite thread and not yet answered.',
      registers: [registry],
      collect() {
        this.set(thread.queueLength);
      },
    });
  }

  // The pending jobs, read at each scrape (two lookups on the index led by status): never the finished
  // ones, whose count only grows with history (they are deleted after JOB_RETENTION_DAYS; the job log
  // lines say how each ended). A database that does not answer leaves these out of the page rather than
  // failing the scrape: the pool and process metrics are what an operator needs most then.
  new Gauge({
    name: 'jobs',
    help: 'Background jobs waiting or being run, by kind and state (queued, running).',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const rows = await queryRows<{ kind: string; status: string; n: number }>(db, sql`SELECT kind, status, count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running') GROUP BY kind, status`);
        for (const row of rows) this.set({ kind: row.kind, state: row.status }, Number(row.n));
      } catch (err) {
        logger?.warn({ reason: (err as Error).message }, 'metrics: could not read the jobs table');
      }
    },
  });
  new Gauge({
    name: 'jobs_oldest_due_seconds',
    help: 'How long the oldest queued job whose time has come has been waiting (0 when none is due).',
    registers: [registry],
    async collect() {
      try {
        const [row] = await queryRows<{ age: number | null }>(
          db,
          sql`SELECT extract(epoch FROM now() - min(run_at))::float8 AS age FROM jobs WHERE status = 'queued' AND run_at <= now()`,
        );
        this.set(Math.max(0, Number(row?.age ?? 0)));
      } catch (err) {
        logger?.warn({ reason: (err as Error).message }, 'metrics: could not read the jobs table');
      }
    },
  });

  return { registry, requestDuration, requestsInFlight, rateLimitRefusals };
}
