// The vacuum job (server/operating/vacuum.job.ts), which stands in on PGlite for the autovacuum PostgreSQL
// runs: a table over autovacuum's thresholds is vacuumed (its dead rows gone, its pages marked all-visible
// for index-only scans) or analyzed, a table under them is left alone, and the next round is a minute later.
// The job's SQL is PostgreSQL's own, so it runs on the suite's storage, whichever it is; the server enqueues
// it on PGlite only, and on PostgreSQL a round left queued by a copy from PGlite ends without a next one.
import { and, eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { jobs } from '../server/db/schema/index.js';
import type { JobRow } from '../server/jobs/claims.js';
import type { EnqueueInput } from '../server/jobs/queue.js';
import { startJobs } from '../server/jobs/start.js';
import { tablesDue, vacuumTables, VACUUM_TABLES } from '../server/operating/vacuum.job.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
const silent = pino({ level: 'silent' });

/** The first row of a raw query, on either driver. */
async function first<T>(query: ReturnType<typeof sql>): Promise<T> {
  const result = (await h.current.db.execute(query)) as unknown as { rows?: T[] } & T[];
  return (result.rows ?? result)[0];
}

async function probeState() {
  await h.current.db.execute(sql`SELECT pg_stat_force_next_flush()`);
  return first<{ dead: number | string; vacuums: number | string; analyzes: number | string; visible: number | string; pages: number | string }>(sql`
    SELECT s.n_dead_tup AS dead, s.vacuum_count AS vacuums, s.analyze_count AS analyzes, c.relallvisible AS visible, c.relpages AS pages
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = 'vacuum_probe'`);
}

/** Runs one round of the job as the runner would, returning the rounds it enqueued next. */
async function runRound(now: Date): Promise<EnqueueInput[]> {
  const next: EnqueueInput[] = [];
  await vacuumTables({}, { db: h.current.db, log: silent, now: () => now, job: {} as JobRow, enqueueOnSuccess: (input) => next.push(input) });
  return next;
}

describe('the vacuum job', () => {
  it('vacuums a table over the dead-rows threshold, analyzes one over the changed-rows threshold, leaves the others, and comes back in a minute', async () => {
    await h.current.db.execute(sql`CREATE TABLE vacuum_probe (id integer PRIMARY KEY, v text)`);
    await h.current.db.execute(sql`INSERT INTO vacuum_probe SELECT g, g::text FROM generate_series(1, 3000) g`);
    await h.current.db.execute(sql`DELETE FROM vacuum_probe WHERE id <= 1000`);
    expect((await tablesDue(h.current.db)).find((t) => t.table === 'vacuum_probe')).toEqual({ table: 'vacuum_probe', vacuum: true });

    const now = new Date();
    const next = await runRound(now);
    const vacuumed = await probeState();
    expect(Number(vacuumed.dead)).toBe(0);
    expect(Number(vacuumed.vacuums)).toBe(1);
    expect(Number(vacuumed.pages)).toBeGreaterThan(0);
    expect(Number(vacuumed.visible)).toBe(Number(vacuumed.pages));
    expect(next).toEqual([{ kind: VACUUM_TABLES, uniqueKey: VACUUM_TABLES, runAt: new Date(now.getTime() + 60_000), maxAttempts: 20 }]);

    // Vacuumed and analyzed: nothing due. 100 changed rows of 2,000 are under the thresholds (450 dead, 250 changed).
    expect((await tablesDue(h.current.db)).map((t) => t.table)).not.toContain('vacuum_probe');
    await h.current.db.execute(sql`UPDATE vacuum_probe SET v = 'x' WHERE id <= 1100`);
    expect((await tablesDue(h.current.db)).map((t) => t.table)).not.toContain('vacuum_probe');

    // 300 changed rows: over the analyze threshold (250), under the vacuum one (450 dead rows).
    await h.current.db.execute(sql`UPDATE vacuum_probe SET v = 'y' WHERE id > 1100 AND id <= 1300`);
    expect((await tablesDue(h.current.db)).find((t) => t.table === 'vacuum_probe')).toEqual({ table: 'vacuum_probe', vacuum: false });
    const analyzesBefore = Number((await probeState()).analyzes);
    await runRound(now);
    const analyzed = await probeState();
    expect(Number(analyzed.analyzes)).toBe(analyzesBefore + 1);
    expect(Number(analyzed.vacuums)).toBe(1);
    // Not vacuumed: dead rows remain (as ANALYZE estimates them from its sample, after page pruning).
    expect(Number(analyzed.dead)).toBeGreaterThan(0);
  });

  it('is enqueued a minute after a start on storage without autovacuum; elsewhere a queued round ends without a next one', async () => {
    const started = Date.now();
    const embedded = await startJobs(h.current.db, silent, { vacuum: true, pollIntervalMs: 50 });
    await embedded.stop();
    const [queued] = await h.current.db.select().from(jobs).where(and(eq(jobs.kind, VACUUM_TABLES), eq(jobs.status, 'queued')));
    expect(queued.runAt.getTime()).toBeGreaterThanOrEqual(started + 60_000);
    expect(queued.runAt.getTime()).toBeLessThan(Date.now() + 60_000);

    // As copied to PostgreSQL (copy-to-postgres), and due: the runner of a server with autovacuum ends it.
    await h.current.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.id, queued.id));
    const server = await startJobs(h.current.db, silent, { vacuum: false, pollIntervalMs: 50 });
    while ((await h.current.db.select().from(jobs).where(eq(jobs.id, queued.id)))[0].status !== 'done') await new Promise((r) => setTimeout(r, 50));
    await server.stop();
    expect(await h.current.db.select().from(jobs).where(and(eq(jobs.kind, VACUUM_TABLES), eq(jobs.status, 'queued')))).toEqual([]);
  });
});
