// Runs data migrations: rewrites of stored JSON values that SQL cannot express (they call the server's own
// code), done in batches after the SQL migrations (docs/operating.md, "Data migrations"). A migration is a
// list of steps, each a JSON column of a table walked in the order of its text primary key. A batch reads
// `batchSize` rows after the last key done (locking them, so a concurrent edit of one waits), writes back
// the values the rewrite changed, and records the new position, all in one transaction: a run that stops
// (a crash, a deploy) loses at most its batch in flight and resumes after the last committed one. A
// rewrite must be idempotent (a row rewritten is left as it is by a second pass), so a resumed or repeated
// run changes nothing it already changed.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';

export interface DataMigrationStep {
  table: string;
  /** The primary key: one text column. */
  key: string;
  /** The jsonb column rewritten. */
  column: string;
  /** The value to store instead, or undefined to leave the row as it is. Must be idempotent. */
  rewrite(value: unknown): unknown;
}

export interface DataMigration {
  /** Unique and never reused: the row of data_migrations that records its progress. */
  name: string;
  steps: DataMigrationStep[];
}

export interface RunOptions {
  /** Rows per batch (per transaction); default 200. */
  batchSize?: number;
  /** Told after each committed batch (a log line; tests stop a run here to resume it). */
  onBatch?: (progress: { migration: string; step: number; table: string; rows: number; changed: number }) => void | Promise<void>;
}

export interface RunResult {
  /** Rows this call rewrote. */
  changed: number;
  /** Whether the migration was already finished before this call. */
  alreadyDone: boolean;
}

interface Position {
  step: number;
  after: string | null;
}

/** Runs `migration` to its end from where it stopped (nothing when it is finished). */
export async function runDataMigration(db: Db, migration: DataMigration, options: RunOptions = {}): Promise<RunResult> {
  const batchSize = options.batchSize ?? 200;
  await db.execute(sql`INSERT INTO data_migrations (name, position) VALUES (${migration.name}, ${JSON.stringify({ step: 0, after: null })}::jsonb) ON CONFLICT (name) DO NOTHING`);
  const [state] = await queryRows<{ position: Position | string; finished: boolean }>(
    db,
    sql`SELECT position, finished_at IS NOT NULL AS finished FROM data_migrations WHERE name = ${migration.name}`,
  );
  if (state.finished) return { changed: 0, alreadyDone: true };
  let position: Position = typeof state.position === 'string' ? (JSON.parse(state.position) as Position) : state.position;
  let changed = 0;
  while (position.step < migration.steps.length) {
    const step = migration.steps[position.step];
    const { next, rows, rewritten } = await db.transaction(async (tx) => {
      const t = sql.identifier(step.table);
      const k = sql.identifier(step.key);
      const c = sql.identifier(step.column);
      // As text, parsed here: both drivers hand it over the same way, and a value's JSON is what is compared.
      const batch = await queryRows<{ key: string; value: string | null }>(
        tx as unknown as Db,
        sql`SELECT ${k} AS key, ${c}::text AS value FROM ${t} WHERE ${position.after === null ? sql`true` : sql`${k} > ${position.after}`} ORDER BY ${k} LIMIT ${batchSize} FOR UPDATE`,
      );
      const updates: Record<string, unknown> = {};
      for (const row of batch) {
        if (row.value === null) continue;
        const before = JSON.parse(row.value) as unknown;
        const after = step.rewrite(before);
        if (after !== undefined && JSON.stringify(after) !== JSON.stringify(before)) updates[row.key] = after;
      }
      const count = Object.keys(updates).length;
      if (count > 0) {
        await tx.execute(sql`UPDATE ${t} SET ${c} = u.value FROM jsonb_each(${JSON.stringify(updates)}::jsonb) AS u(key, value) WHERE ${t}.${k} = u.key`);
      }
      const done = batch.length < batchSize;
      const next: Position = done ? { step: position.step + 1, after: null } : { step: position.step, after: batch[batch.length - 1].key };
      const finished = next.step >= migration.steps.length;
      await tx.execute(
        sql`UPDATE data_migrations SET position = ${JSON.stringify(next)}::jsonb, rows_changed = rows_changed + ${count}, finished_at = ${finished ? sql`now()` : sql`NULL`} WHERE name = ${migration.name}`,
      );
      return { next, rows: batch.length, rewritten: count };
    });
    changed += rewritten;
    await options.onBatch?.({ migration: migration.name, step: position.step, table: step.table, rows, changed: rewritten });
    position = next;
  }
  return { changed, alreadyDone: false };
}
