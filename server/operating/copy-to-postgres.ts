// The move from embedded storage to PostgreSQL (`npm run admin -- copy-to-postgres --database-url <url>`):
// every row of every table of the DATA_DIR database (ids, order keys, tokens' hashes, jobs, files' bytes,
// search indexes) copied unchanged into an empty PostgreSQL database at the same migration.
//
// Values travel as text (`col::text` read, `$n::text[]` cast back to the column's type), which round-trips
// every PostgreSQL type exactly (timestamps with their offset, bytea in hex, jsonb, arrays), with no driver
// parsing in between. Generated columns (search vectors) are computed again by the target. The whole copy is
// one transaction on the target: its foreign keys are dropped first and added back at the end, which checks
// every copied row against them (so rows can go in table by table, whatever refers to what, even to its own
// table) — a failure leaves the target as empty as it was.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface CopyResult {
  /** Rows copied per table, in the order copied. */
  tables: { table: string; rows: number }[];
  /** The migration both databases are at (drizzle's record of its last one). */
  migration: string;
}

const BATCH_ROWS = 500;

/**
 * Tables a migration itself writes rows into (e.g. the key file links are signed with): a freshly migrated
 * target already holds those rows, which the source's replace (so existing signed links keep working).
 */
function tablesFilledByMigrations(): Set<string> {
  const folder = path.resolve(import.meta.dirname, '../db/migrations');
  const names = new Set<string>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.sql'))) {
    for (const match of readFileSync(path.join(folder, file), 'utf8').matchAll(/INSERT INTO\s+"?([a-z_0-9]+)"?/gi)) names.add(match[1]);
  }
  return names;
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** The migrations applied to a database, oldest first, by hash (drizzle's own record). */
const MIGRATIONS_SQL = 'SELECT hash FROM drizzle.__drizzle_migrations ORDER BY created_at, id';

/**
 * Copies everything from `source` (PGlite, on this thread, migrated) into the PostgreSQL database that
 * `target` connects to, which must be migrated to the same version and hold no row in any table.
 */
export async function copyToPostgres(source: PGlite, target: pg.Pool, log: (line: string) => void = () => {}): Promise<CopyResult> {
  const sourceMigrations = (await source.query<{ hash: string }>(MIGRATIONS_SQL)).rows.map((r) => r.hash);
  const targetMigrations = (await target.query<{ hash: string }>(MIGRATIONS_SQL)).rows.map((r) => r.hash);
  if (sourceMigrations.join() !== targetMigrations.join()) {
    throw new Error(
      `The target database is at another migration (${targetMigrations.length} applied) than DATA_DIR (${sourceMigrations.length}): use a database migrated by this version of the server`,
    );
  }
  const { rows: tableRows } = await target.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
  );
  const tables = tableRows.map((r) => r.name);
  const filledByMigrations = tablesFilledByMigrations();
  const nonEmpty: string[] = [];
  for (const table of tables) {
    if (filledByMigrations.has(table)) continue;
    if ((await target.query(`SELECT 1 FROM ${quote(table)} LIMIT 1`)).rowCount) nonEmpty.push(table);
  }
  if (nonEmpty.length > 0) throw new Error(`The target database is not empty (rows in ${nonEmpty.join(', ')}): copy-to-postgres only fills an empty one`);

  const client = await target.connect();
  const copied: CopyResult['tables'] = [];
  try {
    await client.query('BEGIN');
    const { rows: foreignKeys } = await client.query<{ table: string; name: string; definition: string }>(
      `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
         FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
    );
    for (const fk of foreignKeys) await client.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT ${quote(fk.name)}`);
    for (const table of tables) if (filledByMigrations.has(table)) await client.query(`DELETE FROM ${quote(table)}`);
    for (const table of tables) {
      const { rows: columns } = await client.query<{ name: string; type: string }>(
        `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
          WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
        [`public.${quote(table)}`],
      );
      const rows = await copyTable(source, client, table, columns);
      copied.push({ table, rows });
      if (rows > 0) log(`${table}: ${rows} row${rows === 1 ? '' : 's'}`);
    }
    for (const fk of foreignKeys) await client.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT ${quote(fk.name)} ${fk.definition}`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  return { tables: copied, migration: sourceMigrations.at(-1) ?? '(none)' };
}

/** Reads `table` from the source through a cursor, BATCH_ROWS at a time, and inserts each batch in one statement. */
async function copyTable(source: PGlite, target: pg.PoolClient, table: string, columns: { name: string; type: string }[]): Promise<number> {
  if (columns.length === 0) return 0;
  const list = columns.map((c) => quote(c.name)).join(', ');
  const insert = `INSERT INTO ${quote(table)} (${list})
    SELECT ${columns.map((c, i) => `u.c${i}::${c.type}`).join(', ')}
      FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS u(${columns.map((_, i) => `c${i}`).join(', ')})`;
  let total = 0;
  await source.transaction(async (tx) => {
    await tx.query(`DECLARE copy_rows NO SCROLL CURSOR FOR SELECT ${columns.map((c) => `${quote(c.name)}::text`).join(', ')} FROM ${quote(table)}`);
    for (;;) {
      const { rows } = await tx.query<unknown[]>(`FETCH ${BATCH_ROWS} FROM copy_rows`, [], { rowMode: 'array' });
      if (rows.length === 0) break;
      await target.query(insert, columns.map((_, i) => rows.map((row) => row[i] as string | null)));
      total += rows.length;
    }
    await tx.query('CLOSE copy_rows');
  });
  return total;
}
