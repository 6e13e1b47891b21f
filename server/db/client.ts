// One Drizzle type for both storages: embedded PGlite (default) and PostgreSQL through node-postgres.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { PGliteThread } from './pglite-thread.js';
import { listenOnPostgres } from './served-changes-pg.js';
import { listensWith, SERVED_CHANNEL, stopListening, WRITTEN_CHANNEL } from './served-changes.js';
import { tracedPGlite } from './pglite-traced.js';
import { countStatement, statementCountingLogger } from './query-count.js';
import type { QueryTracer } from './query-trace.js';
import { sqlLiteral } from './sql-literal.mjs';
import * as schema from './schema/index.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /**
   * Applies the pending drizzle-kit migrations under the database's start-up lock, then runs `afterwards`
   * (a first start's bootstrap) still holding it. On PostgreSQL the lock is a session advisory lock on a
   * connection of its own: processes started together on one database take turns, the first migrates and
   * the others, once it is done, find nothing to apply (`waited` says one had to wait; `onWait` is told
   * before it does). Released when done, or by PostgreSQL if the process dies holding it. On PGlite the
   * DATA_DIR lock (server/storage-lock.ts) already keeps other processes out.
   */
  migrate(options?: MigrateOptions): Promise<MigrateResult>;
  close(): Promise<void>;
}

export interface MigrateOptions {
  afterwards?: () => Promise<unknown>;
  onWait?: () => void;
}

export interface MigrateResult {
  /** How many migrations this call applied (0: the database was up to date). */
  applied: number;
  /** Whether another process held the start-up lock when this one asked for it. */
  waited: boolean;
}

/** The advisory lock's key: a hash of a name no other application on the database would use. */
const STARTUP_LOCK = `hashtextextended('docs-workspace-api: migrations and bootstrap', 0)`;

/** How many migrations drizzle has recorded (0 before the first: its table does not exist yet). */
async function recordedMigrations(db: Db): Promise<number> {
  const [{ exists }] = await queryRows<{ exists: boolean }>(db, sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS exists`);
  if (!exists) return 0;
  const [{ count }] = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`);
  return count;
}

/** Migrates with `apply` and runs `afterwards`, counting what was applied. */
async function migrateCounting(db: Db, apply: () => Promise<void>, afterwards?: () => Promise<unknown>): Promise<number> {
  const before = await recordedMigrations(db);
  await apply();
  const applied = (await recordedMigrations(db)) - before;
  await afterwards?.();
  return applied;
}

/** How PostgreSQL connections behave when the server is slow or gone (server/config.ts reads them from the environment). */
export interface PoolLimits {
  /** Connections per process; default 10. */
  poolSize?: number;
  /** The longest wait for a new connection (or for a free one in the pool) before the query fails (→ 503); default 5 s. */
  connectTimeoutMs?: number;
}

const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

export type StorageConfig =
  | {
      kind: 'postgres';
      url: string;
      /** Told about connections the server drops (restart, failover); default: a warning on stderr. */
      onConnectionError?: (err: Error) => void;
      /** Told of every statement the pool's connections send (traces, server/telemetry/); default none. */
      tracer?: QueryTracer;
    } & PoolLimits
  | {
      kind: 'pglite';
      /** Told of every statement sent to PGlite, on its thread or on this one (traces, server/telemetry/). */
      tracer?: QueryTracer;
      /** The data folder; in memory when absent. */
      dataDir?: string;
      /** A data folder dumped by PGlite's `dumpDataDir`, to start from (the tests' migrated template). */
      loadDataDir?: Uint8Array;
      /** A PGlite to use on this thread instead of one on its own thread (tools that dump or copy data). */
      pglite?: PGlite;
      /**
       * false: PGlite on the server's thread, as before 2026-11-23 (slower reads; a transaction's opening
       * no longer waits in the event loop, see bench/results/soak.md). Default true.
       */
      thread?: boolean;
    };

/**
 * Opens the configured storage: PGlite over a folder, a dump or memory, on a thread of its own
 * (pglite-thread.ts) unless `thread` is false; an existing PGlite instance on this thread; or PostgreSQL.
 */
export function createDb(config: StorageConfig): Database {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: config.poolSize ?? 10,
      // Without a deadline a query waits forever for a database that does not answer the connection.
      connectionTimeoutMillis: config.connectTimeoutMs ?? 5000,
      // TCP keep-alive notices a peer that vanished without closing (a failover, a cut network).
      keepAlive: true,
      // No JIT compilation: the statements are short reads and writes, and PostgreSQL compiles any plan whose
      // estimated cost passes jit_above_cost (100,000), which a list's pessimistic estimate can reach (a page
      // of 100 members: 107 ms of compilation for a 20 ms statement, bench/scale.ts).
      options: '-c jit=off',
      // Every statement of the pool's connections, Drizzle's and directQuery's, goes through its client's `query`.
      ...(config.tracer && { Client: tracedClient(config.tracer) }),
    });
    // A connection the server closes emits 'error'; unheard, that would crash the process. The pool
    // replaces the connection on the next query, and a query in flight fails on its own.
    const onError = config.onConnectionError ?? ((err: Error) => console.warn(`PostgreSQL connection lost: ${err.message}`));
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', onError));
    const db = drizzlePg(pool, { schema, logger: statementCountingLogger });
    // A named statement: node-postgres prepares it once per connection and the server caches its plan.
    directQueries.set(db as unknown as Db, async (name, text, params) => (await pool.query({ name, text, values: params })).rows);
    const listening = listenOnPostgres({ url: config.url, connectTimeoutMs: config.connectTimeoutMs ?? 5000, onError });
    listensWith(db as unknown as Db, listening);
    return {
      db: db as unknown as Db,
      migrate: async ({ afterwards, onWait } = {}) => {
        // Its own connection, outside the pool: the migrator needs the pool's, whatever its size.
        const locker = new pg.Client({ connectionString: config.url, connectionTimeoutMillis: config.connectTimeoutMs ?? 5000 });
        locker.on('error', onError);
        await locker.connect();
        try {
          const [{ locked }] = (await locker.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${STARTUP_LOCK}) AS locked`)).rows;
          if (!locked) {
            onWait?.();
            await locker.query(`SELECT pg_advisory_lock(${STARTUP_LOCK})`);
          }
          const applied = await migrateCounting(db as unknown as Db, () => migratePg(db, { migrationsFolder }), afterwards);
          await locker.query(`SELECT pg_advisory_unlock(${STARTUP_LOCK})`);
          return { applied, waited: !locked };
        } finally {
          await locker.end();
        }
      },
      close: async () => {
        await stopListening(db as unknown as Db);
        await pool.end();
      },
    };
  }
  const thread = config.pglite || config.thread === false ? undefined : new PGliteThread({ dataDir: config.dataDir, loadDataDir: config.loadDataDir, tracer: config.tracer });
  const inProcess = thread
    ? undefined
    : (config.pglite ?? new PGlite({ dataDir: config.dataDir, ...(config.loadDataDir && { loadDataDir: new Blob([config.loadDataDir as Uint8Array<ArrayBuffer>]) }) }));
  // On this thread, statements are traced where they are sent to PGlite (pglite-traced.ts).
  const client = thread?.asPGlite() ?? (config.tracer ? tracedPGlite(inProcess!, config.tracer) : inProcess!);
  const db = drizzlePglite(client, { schema, logger: statementCountingLogger });
  directQueries.set(db as unknown as Db, thread ? async (name, text, params) => (await thread.execute(name, text, params)).rows : pgliteDirectQuery(inProcess!, config.tracer));
  // PGlite's one session hears its own notices, each before the statement that committed it answers.
  listensWith(db as unknown as Db, {
    start: (changes) => {
      const session = thread ?? inProcess!;
      const listening = Promise.all([
        session.listen(SERVED_CHANNEL, (payload) => changes.tell(payload)),
        session.listen(WRITTEN_CHANNEL, () => changes.tellWritten()),
      ]);
      listening.then(() => changes.up(), () => changes.down());
      return async () => {
        for (const unlisten of (await listening.catch(() => undefined)) ?? []) await unlisten().catch(() => {});
      };
    },
  });
  return {
    db: db as unknown as Db,
    migrate: async ({ afterwards } = {}) => ({ applied: await migrateCounting(db as unknown as Db, () => migratePglite(db, { migrationsFolder }), afterwards), waited: false }),
    close: async () => {
      await stopListening(db as unknown as Db);
      await client.close();
    },
  };
}

type QueryCallback = (err: Error | null, result: unknown) => void;

/**
 * node-postgres's client, telling `tracer` of each statement it sends: the pool builds its connections
 * from it (its `Client` option). Calls come as a promise (Drizzle, directQuery) or with a callback (the
 * pool's own `query`); a submittable (a cursor) is passed on untraced.
 */
function tracedClient(tracer: QueryTracer): typeof pg.Client {
  const superQuery = pg.Client.prototype.query as (this: unknown, ...args: unknown[]) => unknown;
  // Returned as node-postgres's own class: its `query` is one implementation of all the overloads.
  const TracedClient = class extends pg.Client {
    // @ts-expect-error: one implementation of node-postgres's overloads of `query`.
    override query(config: string | { text?: string; name?: string; submit?: unknown }, values?: unknown, callback?: unknown): unknown {
      // Outside a sampled request (and for a submittable, a cursor): node-postgres's own, nothing made.
      if (!tracer.tracing() || (typeof config === 'object' && typeof config.submit === 'function')) return superQuery.call(this, config, values, callback);
      const query = (...args: unknown[]) => superQuery.apply(this, args);
      const end = tracer.start(typeof config === 'string' ? config : (config.text ?? ''), typeof config === 'string' ? undefined : config.name);
      if (!end) return query(config, values, callback);
      const done = (typeof values === 'function' ? values : callback) as QueryCallback | undefined;
      if (done) {
        const ended: QueryCallback = (err, result) => {
          end(err ?? undefined);
          done(err, result);
        };
        return typeof values === 'function' ? query(config, ended) : query(config, values, ended);
      }
      const answered = query(config, values) as Promise<unknown>;
      answered.then(() => end(), end);
      return answered;
    }
  };
  return TracedClient as unknown as typeof pg.Client;
}

// SQLSTATE classes and codes meaning "the database cannot serve now" rather than "this query is wrong":
// 08 connection exception, 57P01–57P03 shutdown / starting up, 53300 too many connections.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// node-postgres raises these as plain Errors without a code.
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|Cannot use a pool after calling end/i;

/**
 * Whether `err` (or an error it wraps: Drizzle puts the driver's in `cause`) says the database could not
 * be reached or is not accepting work, as opposed to a failing query. Such a request is answered 503.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NODE_CODES.has(code))) return true;
    if (UNAVAILABLE_MESSAGES.test(current.message)) return true;
    // AggregateError: every address of the host refused (Node's happy-eyeballs connect).
    if (current instanceof AggregateError && current.errors.some((e) => isDatabaseUnavailable(e))) return true;
    current = current.cause;
  }
  return false;
}

/**
 * An error as it may be logged: nothing of the values a failed query carried, which can be anything a
 * request sent, an integration's secrets included. Drizzle puts the bound values in its message, its
 * stack's first line and `params`; the database's own message may quote one too ("invalid input syntax
 * for type integer: \"…\"", "Key (x)=(…) already exists"). So a failed query is logged as its SQL text, and
 * a database error as its SQLSTATE and the names it gives (constraint, table, column), with the frames.
 */
export function loggableError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 4) return err;
  const e = err as Error & { query?: unknown; params?: unknown; code?: unknown; severity?: unknown; constraint?: string; table?: string; column?: string };
  const frames = (err.stack ?? '').split('\n').filter((line) => line.startsWith('    at ')).join('\n');
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string') {
    const message = `database error SQLSTATE ${e.code}${e.constraint ? ` on constraint ${e.constraint}` : ''} (message not logged: it may quote a value)`;
    return { type: err.name, code: e.code, constraint: e.constraint, table: e.table, column: e.column, message, stack: `${err.name}: ${message}\n${frames}` };
  }
  if (typeof e.query === 'string' && Array.isArray(e.params)) {
    return { type: err.name, message: `Failed query: ${e.query} (parameters not logged)`, stack: `${err.name}: Failed query\n${frames}`, cause: loggableError(err.cause, depth + 1) };
  }
  if (err.cause === undefined) return err;
  return { type: err.name, message: err.message, stack: err.stack, cause: loggableError(err.cause, depth + 1) };
}

/** Whether the database answers and every migration of this build is applied (the readiness check). */
export async function databaseReady(db: Db): Promise<boolean> {
  // drizzle's migrators record each applied migration in drizzle.__drizzle_migrations; its created_at is the journal entry's `when`.
  const rows = await queryRows<{ last: string | null }>(db, sql`SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations`);
  return Number(rows[0]?.last ?? 0) >= latestMigrationMillis();
}

let latestMigration: number | undefined;
function latestMigrationMillis(): number {
  latestMigration ??= Math.max(
    0,
    ...(JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] }).entries.map((e) => e.when),
  );
  return latestMigration;
}

type DirectQuery = (name: string, text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The driver's own query function for each database opened by createDb. */
const directQueries = new WeakMap<Db, DirectQuery>();

/**
 * Runs a query given as SQL text with `$1…` parameters straight on the driver: on a database opened by
 * createDb, a named prepared statement on PostgreSQL (PREPAREd once on PGlite); in one of its transactions,
 * on the transaction's own connection. Rows come back with the database's column names and the driver's
 * types (Date for timestamps, parsed JSON). Straight on the driver because Drizzle's PGlite session copies
 * every type parser into each query's options, which the profile of GET /v1/spaces/{id} showed costing
 * about a tenth of the request, and Drizzle's builders cost a fifth of the change-request write cycle.
 * Values: text, numbers, Dates, null; JSON goes as its text (`JSON.stringify`) with a `::jsonb` cast.
 */
export async function directQuery(db: Db, name: string, text: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  countStatement();
  const direct = directQueries.get(db) ?? transactionQuery(db);
  return direct(name, text, params);
}

/**
 * The driver's query function of a Drizzle transaction: its session's client is a pooled node-postgres
 * client, or PGlite's transaction handle (PGlite's own or pglite-thread.ts's).
 */
function transactionQuery(tx: Db): DirectQuery {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  if (client instanceof pg.Client) {
    return async (name, text, params) => (await client.query({ name, text, values: params })).rows;
  }
  // PGlite on its thread: prepared there (pglite-thread.ts `execute`).
  const threadHandle = client as { execute?: (name: string, text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> };
  if (typeof threadHandle.execute === 'function') {
    const execute = threadHandle.execute;
    return async (name, text, params) => (await execute(name, text, params)).rows;
  }
  if (client && typeof (client as { query?: unknown }).query === 'function' && !(client instanceof pg.Pool)) {
    // PGlite on this thread (tools): bound parameters, planned on each call.
    const handle = client as { query(text: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
    return async (_name, text, params) => (await handle.query(text, params)).rows;
  }
  throw new TypeError('directQuery: not a database opened by createDb nor one of its transactions');
}

/**
 * PGlite parses and plans every query it is sent. A hot query is PREPAREd once in PGlite's only session
 * and then EXECUTEd, which plans nothing (about half the cost of the access query, measured).
 */
function pgliteDirectQuery(client: PGlite, tracer: QueryTracer | undefined): DirectQuery {
  const prepared = new Map<string, Promise<unknown>>();
  const run = async (name: string, text: string, params: unknown[]) => {
    let ready = prepared.get(name);
    if (!ready) {
      ready = client.exec(`PREPARE ${name} AS ${text}`);
      prepared.set(name, ready);
    }
    await ready;
    // EXECUTE is a utility statement: it takes no bind parameters, so the values go in as quoted literals;
    // without parameters it takes no parentheses (`name()` is a syntax error).
    const execute = params.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${params.map(sqlLiteral).join(', ')})`;
    return (await client.query<Record<string, unknown>>(execute)).rows;
  };
  if (!tracer) return run;
  // Traced as the statement it prepares, by its name: the EXECUTE text holds the values, never recorded.
  return (name, text, params) => {
    const end = tracer.start(text, name);
    const answer = run(name, text, params);
    if (end) answer.then(() => end(), end);
    return answer;
  };
}

/** A row of `table` read by `directQuery` (its columns named `<prefix>column`), under Drizzle's property names and types. */
export function tableRow<T extends PgTable>(table: T, raw: Record<string, unknown>, prefix = ''): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[prefix + column.name];
    row[key] = value == null ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

/** The rows of a raw SQL query, on either driver (both answer `{ rows }`). */
export async function queryRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
