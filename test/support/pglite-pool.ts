// PGlite databases for the test files, reused by the files that run one after another in a vitest worker.
// Starting PGlite from the migrated template costs about 2 s of CPU (the WebAssembly Postgres boots and
// unpacks the dump), some 150 s of a PGlite pass over 76 files; emptying a used one costs milliseconds. A
// file's database is given back when the file ends, emptied to the template's state (its tables
// truncated, identities restarted, the template's own rows put back) and handed to the next file of the
// same worker. vitest's `isolate: false` (vitest.config.ts) keeps this module, and so the pool, alive
// across the files of a worker; files of one worker never run at once. A database that cannot be emptied
// (a test closed it, or left it in a transaction) is closed and not reused.
import { readFileSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import { inject } from 'vitest';
import { createDb, type Database } from '../../server/db/client.js';

/** What the template holds: every table of the public schema, and the rows of those that are not empty. */
interface TemplateState {
  tables: string[];
  rows: { table: string; columns: string[]; json: string }[];
}

const idle: Database[] = [];
let template: TemplateState | undefined;
const RESET_TIMEOUT_MS = 10_000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function rowsOf<T>(database: Database, query: SQL): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function readTemplateState(database: Database): Promise<TemplateState> {
  const tables = (await rowsOf<{ name: string }>(database, sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)).map((r) => r.name);
  const rows: TemplateState['rows'] = [];
  for (const table of tables) {
    const [content] = await rowsOf<{ json: string | null }>(database, sql.raw(`SELECT json_agg(t)::text AS json FROM ${quote(table)} t`));
    if (!content?.json) continue;
    // Generated columns cannot be written: they are computed again from the others.
    const columns = await rowsOf<{ name: string }>(
      database,
      sql`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${table} AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    );
    rows.push({ table, columns: columns.map((c) => c.name), json: content.json });
  }
  return { tables, rows };
}

/** Empties a used database to the template's state, in one transaction. */
async function resetToTemplate(database: Database, state: TemplateState): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`TRUNCATE ${state.tables.map(quote).join(', ')} RESTART IDENTITY CASCADE`));
    for (const { table, columns, json } of state.rows) {
      const list = columns.map(quote).join(', ');
      await tx.execute(sql`${sql.raw(`INSERT INTO ${quote(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${quote(table)}, `)}${json}::json)`);
    }
  });
}

/** A database in the template's state: an emptied one from an earlier file of this worker, or a new one. */
export async function takePgliteDatabase(): Promise<{ database: Database; dispose: () => Promise<void> }> {
  const database = idle.pop() ?? createDb({ kind: 'pglite', loadDataDir: readFileSync(inject('pgliteTemplate')) });
  template ??= await readTemplateState(database);
  const state = template;
  return { database, dispose: () => giveBack(database, state) };
}

async function giveBack(database: Database, state: TemplateState): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), RESET_TIMEOUT_MS)));
  const outcome = await Promise.race([resetToTemplate(database, state).then(() => 'reset' as const), timedOut]).catch(() => 'failed' as const);
  clearTimeout(timer);
  if (outcome === 'reset') idle.push(database);
  else if (outcome === 'failed') await database.close().catch(() => undefined);
  // 'timeout': a transaction still holds it; it is left to the worker's exit.
}
