// The autovacuum embedded storage lacks. PGlite is PostgreSQL in single-user mode: no autovacuum launcher
// runs, so without this job its tables would never be vacuumed nor analyzed after the server's first start.
// Dead rows would pile up (every update and delete leaves one), the planner would keep the statistics of the
// day the tables were small, and no page would ever be marked all-visible, so a count the lists show beside
// each row (a space's change requests and open comments) would read the table's rows where an index-only scan
// reads the index alone: the spaces' page of 100 at 100,000 pages took 13.8 ms of SQL before a VACUUM, 6.1 ms
// after (docs/benchmarks.md). On PostgreSQL the server's own autovacuum does this; the job runs on PGlite only.
//
// Every minute, as autovacuum's naptime, it reads the tables' activity and applies autovacuum's default
// thresholds to each table (its live rows n): VACUUM (ANALYZE) when it has more than 50 + 0.2 n dead rows or
// more than 1,000 + 0.2 n rows inserted since its last vacuum, ANALYZE alone when more than 50 + 0.1 n rows
// changed since its last analyze. Nothing due costs one read of pg_stat_user_tables.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import type { EnqueueInput } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/runner.js';

export const VACUUM_TABLES = 'vacuum-tables';
const EVERY_MS = 60 * 1000;

/** The next round, due at `runAt` (default: when enqueued); its uniqueKey keeps one pending. */
export function vacuumTablesJob(runAt?: Date): EnqueueInput {
  return { kind: VACUUM_TABLES, uniqueKey: VACUUM_TABLES, runAt, maxAttempts: 20 };
}

export interface TableUpkeep {
  table: string;
  /** VACUUM (ANALYZE) rather than ANALYZE alone. */
  vacuum: boolean;
}

/**
 * The tables of the public schema over autovacuum's default thresholds, and what each needs. The activity
 * counters are flushed first: a backend publishes them at most once a second, and PGlite's only backend is
 * the one asking.
 */
export async function tablesDue(db: Db): Promise<TableUpkeep[]> {
  await db.execute(sql`SELECT pg_stat_force_next_flush()`);
  const result = await db.execute(sql`
    SELECT relname AS table,
           (n_dead_tup > 50 + 0.2 * n_live_tup OR n_ins_since_vacuum > 1000 + 0.2 * n_live_tup) AS vacuum
    FROM pg_stat_user_tables
    WHERE schemaname = 'public'
      AND (n_dead_tup > 50 + 0.2 * n_live_tup OR n_ins_since_vacuum > 1000 + 0.2 * n_live_tup OR n_mod_since_analyze > 50 + 0.1 * n_live_tup)
    ORDER BY relname`);
  const rows = ((result as { rows?: unknown[] }).rows ?? result) as { table: string; vacuum: boolean }[];
  return rows.map((r) => ({ table: r.table, vacuum: r.vacuum }));
}

/** Vacuums or analyzes each table due, one statement each (VACUUM runs outside a transaction, as the job's statements do). */
export const vacuumTables: JobHandler = async (_payload, ctx) => {
  const due = await tablesDue(ctx.db);
  for (const { table, vacuum } of due) {
    await ctx.db.execute(sql.raw(`${vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${quoteIdentifier(table)}`));
  }
  if (due.length > 0) ctx.log.debug({ tables: due }, 'vacuumed and analyzed the tables over their thresholds');
  ctx.enqueueOnSuccess(vacuumTablesJob(new Date(ctx.now().getTime() + EVERY_MS)));
};

/**
 * The job's handler on PostgreSQL, where autovacuum does the work: a round still queued in a database copied
 * from embedded storage (`copy-to-postgres` copies the jobs too) ends there, without a next one.
 */
export const autovacuumDoesIt: JobHandler = async () => {};

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
