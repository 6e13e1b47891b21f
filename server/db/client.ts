// One Drizzle type for both storages: embedded PGlite (default) and PostgreSQL through node-postgres.
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /** Applies the pending drizzle-kit migrations. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

export type StorageConfig =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** Told about connections the server drops (restart, failover); default: a warning on stderr. */
      onConnectionError?: (err: Error) => void;
    }
  | { kind: 'pglite'; dataDir?: string; pglite?: PGlite };

/** Opens the configured storage: an existing PGlite instance, a PGlite folder (in memory when absent), or PostgreSQL. */
export function createDb(config: StorageConfig): Database {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: config.poolSize ?? 10 });
    // A connection the server closes emits 'error'; unheard, that would crash the process. The pool
    // replaces the connection on the next query, and a query in flight fails on its own.
    const onError = config.onConnectionError ?? ((err: Error) => console.warn(`PostgreSQL connection lost: ${err.message}`));
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', onError));
    const db = drizzlePg(pool, { schema });
    // A named statement: node-postgres prepares it once per connection and the server caches its plan.
    directQueries.set(db as unknown as Db, async (name, text, params) => (await pool.query({ name, text, values: params })).rows);
    return {
      db: db as unknown as Db,
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  const client = config.pglite ?? new PGlite(config.dataDir);
  const db = drizzlePglite(client, { schema });
  directQueries.set(db as unknown as Db, pgliteDirectQuery(client));
  return {
    db: db as unknown as Db,
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

type DirectQuery = (name: string, text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The driver's own query function for each database opened by createDb (not for transactions). */
const directQueries = new WeakMap<Db, DirectQuery>();

/**
 * Runs a hot-path query given as SQL text with `$1…` parameters, straight on the driver when `db` is a
 * database (a named prepared statement on PostgreSQL), or through Drizzle inside a transaction. Rows come
 * back with the database's column names. Straight on the driver because Drizzle's PGlite session copies
 * every type parser into each query's options, which the profile of GET /v1/spaces/{id} showed costing
 * about a tenth of the request.
 */
export async function directQuery(db: Db, name: string, text: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  const direct = directQueries.get(db);
  if (direct) return direct(name, text, params);
  const chunks = text.split(/\$(\d+)/).map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`));
  return queryRows<Record<string, unknown>>(db, sql.join(chunks));
}

/**
 * PGlite parses and plans every query it is sent. A hot query is PREPAREd once in PGlite's only session
 * and then EXECUTEd, which plans nothing (about half the cost of the access query, measured).
 */
function pgliteDirectQuery(client: PGlite): DirectQuery {
  const prepared = new Map<string, Promise<unknown>>();
  return async (name, text, params) => {
    let ready = prepared.get(name);
    if (!ready) {
      ready = client.exec(`PREPARE ${name} AS ${text}`);
      prepared.set(name, ready);
    }
    await ready;
    // EXECUTE is a utility statement: it takes no bind parameters, so the values go in as quoted literals.
    return (await client.query<Record<string, unknown>>(`EXECUTE ${name}(${params.map(textLiteral).join(', ')})`)).rows;
  };
}

/** A text value as an SQL literal (standard_conforming_strings: only the quote needs doubling). */
function textLiteral(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError('directQuery on PGlite takes text parameters only');
  return `'${value.replaceAll("'", "''")}'`;
}

/** A row of `table` read by `directQuery`, under Drizzle's property names and types. */
export function tableRow<T extends PgTable>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value == null ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

/** The rows of a raw SQL query, on either driver (both answer `{ rows }`). */
export async function queryRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
