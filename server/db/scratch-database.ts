// A throwaway PostgreSQL database beside the one `adminUrl` names, for tests and benchmarks: created
// empty (or as a copy of `template`), dropped by `dispose` even while connections are still closing.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Database } from './client.js';

export interface ScratchDatabase {
  database: Database;
  /** The connection string of the new database. */
  url: string;
  dispose: () => Promise<void>;
}

export async function createScratchDatabase(adminUrl: string, options: { prefix: string; template?: string; poolSize?: number }): Promise<ScratchDatabase> {
  const name = `${options.prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Dropping the database at the end may reach connections the pool is still closing: not a failure.
  const database = createDb({ kind: 'postgres', url: url.toString(), poolSize: options.poolSize, onConnectionError: () => {} });
  return {
    database,
    url: url.toString(),
    dispose: async () => {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
