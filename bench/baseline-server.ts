// The baseline of bench/http.ts: the least a server can do for GET /v1/spaces/{id} on our schema — a plain
// Express 5 app with two raw parametrized queries per request (token hash -> user, then the space row) and
// the row as JSON. No logging, no validation, no ORM, no permission check: what is left of the project's
// cost once those are gone. Storage as a plain server would run it: node-postgres, or PGlite in-process
// over a data folder (BASELINE_PGLITE=thread runs it on the project's PGlite thread instead, a variant
// that compares only what the servers do around the same storage). Started by bench/http.ts:
//   PORT=… (DATABASE_URL=postgres://… | DATA_DIR=<PGlite folder> [BASELINE_PGLITE=thread]) npx tsx bench/baseline-server.ts
import { createHash } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PGliteThread } from '../server/db/pglite-thread.js';
import { writeRoutes } from './baseline-writes.js';

export type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
export interface Storage {
  query: Query;
  /** Runs `work` in one transaction (BEGIN … COMMIT, ROLLBACK when it throws). */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  close: () => Promise<void>;
}

function openStorage(): Storage {
  if (process.env.DATABASE_URL) {
    // Pool of 10, like the project's createDb.
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return {
      query: async (text, params) => (await pool.query(text, params)).rows,
      async transaction(work) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const result = await work(async (text, params) => (await client.query(text, params)).rows);
          await client.query('commit');
          return result;
        } catch (err) {
          await client.query('rollback');
          throw err;
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  if (!process.env.DATA_DIR) throw new Error('baseline-server: set DATABASE_URL or DATA_DIR');
  const client = process.env.BASELINE_PGLITE === 'thread' ? new PGliteThread({ dataDir: process.env.DATA_DIR }) : new PGlite(process.env.DATA_DIR);
  return {
    query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
    transaction: (work) => client.transaction((tx) => work(async (text, params) => (await tx.query<Record<string, unknown>>(text, params)).rows)),
    close: () => client.close(),
  };
}

const storage = openStorage();
const app = express();
app.disable('x-powered-by');

app.get('/v1/spaces/:spaceId', async (req, res) => {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const hash = createHash('sha256').update(token ?? '').digest('hex');
  const [caller] = await storage.query('select user_id from api_tokens where token_hash = $1', [hash]);
  if (!caller) {
    res.status(401).json({ error: { code: 401, message: 'Invalid access token' } });
    return;
  }
  const [space] = await storage.query('select * from spaces where id = $1', [req.params.spaceId]);
  if (!space) {
    res.status(404).json({ error: { code: 404, message: 'Space not found' } });
    return;
  }
  res.json(space);
});

// The write path of bench/write-path.ts (bench/baseline-writes.ts): the same rows as the project, in one transaction.
app.use(writeRoutes(storage));

const server = app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
function shutdown() {
  server.close(() => void storage.close().then(() => process.exit(0)));
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
