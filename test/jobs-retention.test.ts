// Finished jobs are kept JOB_RETENTION_DAYS, then deleted by the prune job (server/jobs/prune.job.ts),
// which every start enqueues once (across processes) and which reschedules itself; /metrics counts only
// the pending jobs, whatever the history. On the suite's storage.
import { eq, inArray, sql } from 'drizzle-orm';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { jobs } from '../server/db/schema/index.js';
import { PRUNE_FINISHED_JOBS, pruneFinishedJobs } from '../server/jobs/prune.job.js';
import { enqueueJob } from '../server/jobs/queue.js';
import type { EnqueueInput } from '../server/jobs/queue.js';
import { startJobs } from '../server/jobs/start.js';
import type { JobRow } from '../server/jobs/claims.js';
import { createMetrics } from '../server/operating/metrics.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
const DAY_MS = 24 * 60 * 60 * 1000;
const silent = pino({ level: 'silent' });

/** A job of `kind` in `status`, last updated (finished) `daysAgo` days ago. */
async function jobFinished(kind: string, status: 'done' | 'failed' | 'queued' | 'running', daysAgo: number): Promise<string> {
  const at = new Date(Date.now() - daysAgo * DAY_MS);
  const id = (await enqueueJob(h.current.db, { kind, runAt: at }, at))!;
  await h.current.db.update(jobs).set({ status, updatedAt: at }).where(eq(jobs.id, id));
  return id;
}

describe('finished jobs retention', () => {
  it('reads JOB_RETENTION_DAYS (default 7) and refuses a negative one', () => {
    expect(loadConfig({}).jobRetentionDays).toBe(7);
    expect(loadConfig({ JOB_RETENTION_DAYS: '30' }).jobRetentionDays).toBe(30);
    expect(() => loadConfig({ JOB_RETENTION_DAYS: '-1' })).toThrow(/JOB_RETENTION_DAYS/);
  });

  it('deletes the jobs finished (done or failed) before the retention, keeps the newer and the pending ones, and runs again in an hour', async () => {
    const oldDone = await jobFinished('retention-test', 'done', 8);
    const oldFailed = await jobFinished('retention-test', 'failed', 7.5);
    const recentDone = await jobFinished('retention-test', 'done', 6);
    const oldQueued = await jobFinished('retention-test', 'queued', 30);
    const oldRunning = await jobFinished('retention-test', 'running', 30);
    const followUps: EnqueueInput[] = [];
    const now = new Date();
    await pruneFinishedJobs(7)({}, { db: h.current.db, log: silent, now: () => now, job: {} as JobRow, enqueueOnSuccess: (input) => followUps.push(input) });
    const left = await h.current.db.select({ id: jobs.id }).from(jobs).where(inArray(jobs.id, [oldDone, oldFailed, recentDone, oldQueued, oldRunning]));
    expect(left.map((r) => r.id).sort()).toEqual([recentDone, oldQueued, oldRunning].sort());
    expect(followUps).toHaveLength(1);
    expect(followUps[0]).toMatchObject({ kind: PRUNE_FINISHED_JOBS, uniqueKey: PRUNE_FINISHED_JOBS });
    expect(followUps[0].runAt!.getTime() - now.getTime()).toBe(60 * 60 * 1000);

    // A shorter retention reaches the newer one too.
    await pruneFinishedJobs(5)({}, { db: h.current.db, log: silent, now: () => now, job: {} as JobRow, enqueueOnSuccess: () => undefined });
    const after = await h.current.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, recentDone));
    expect(after).toEqual([]);
  });

  it('is enqueued by every start, once across processes, and run by the runner with the configured retention', async () => {
    const oldDone = await jobFinished('retention-run-test', 'done', 3);
    const first = await startJobs(h.current.db, silent, { retentionDays: 2, pollIntervalMs: 50 });
    const second = await startJobs(h.current.db, silent, { retentionDays: 2, pollIntervalMs: 50 });
    try {
      for (const deadline = Date.now() + 20_000; ; ) {
        const [row] = await h.current.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, oldDone));
        if (!row) break;
        if (Date.now() > deadline) throw new Error('the prune did not delete the job within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
    // One pending prune (the next run), whichever process ran this one.
    const pending = await h.current.db.select({ id: jobs.id }).from(jobs).where(sql`kind = ${PRUNE_FINISHED_JOBS} AND status IN ('queued', 'running')`);
    expect(pending).toHaveLength(1);
  });

  it('counts only the pending jobs on /metrics', async () => {
    await jobFinished('metrics-history-test', 'done', 1);
    await jobFinished('metrics-history-test', 'failed', 1);
    await jobFinished('metrics-history-test', 'queued', 0);
    const metrics = createMetrics({ db: h.current.db, processMetrics: false });
    const app = createApp({ db: h.current.db, logger: silent, publicUrl: 'https://api.test.example', metrics });
    const res = await request(app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('jobs{kind="metrics-history-test",state="queued"} 1');
    expect(res.text).not.toMatch(/jobs\{kind="metrics-history-test",state="(done|failed)"\}/);
  });
});
