// One Drizzle type for both storages: embedded PGlite (default) and PostgreSQL through node-postgres.
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
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
    return {
      db: db as unknown as Db,
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  const client = config.pglite ?? new PGlite(config.dataDir);
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

/** The rows of a raw SQL query, on either driver (both answer `{ rows }`). */
export async function queryRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
