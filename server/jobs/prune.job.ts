// Finished jobs (done, or failed for good) are kept JOB_RETENTION_DAYS (default 7), for an operator to look
// into, then deleted by this job: hourly, a bounded batch per run, at once again while batches come out
// full. Without it the jobs table only grows (every merge, delivery and index run leaves a row).
import { and, inArray, lt } from 'drizzle-orm';
import { jobs } from '../db/schema/index.js';
import type { EnqueueInput } from './queue.js';
import type { JobHandler } from './runner.js';

export const PRUNE_FINISHED_JOBS = 'prune-finished-jobs';
const EVERY_MS = 60 * 60 * 1000;
// One statement deleting at most this many keeps each run's locks and transaction short.
const BATCH = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The next prune, due at `runAt` (default: when enqueued); its uniqueKey keeps one pending across processes. */
export function pruneFinishedJobsJob(runAt?: Date): EnqueueInput {
  return { kind: PRUNE_FINISHED_JOBS, uniqueKey: PRUNE_FINISHED_JOBS, runAt, maxAttempts: 20 };
}

/** Deletes one batch of jobs finished more than `retentionDays` ago (by when they finished: their last update). */
export function pruneFinishedJobs(retentionDays: number): JobHandler {
  return async (_payload, ctx) => {
    const cutoff = new Date(ctx.now().getTime() - retentionDays * DAY_MS);
    const finished = and(inArray(jobs.status, ['done', 'failed']), lt(jobs.updatedAt, cutoff));
    const expired = ctx.db.select({ id: jobs.id }).from(jobs).where(finished).limit(BATCH);
    const pruned = await ctx.db.delete(jobs).where(inArray(jobs.id, expired)).returning({ id: jobs.id });
    if (pruned.length > 0) ctx.log.info({ pruned: pruned.length, retentionDays }, 'deleted finished jobs past their retention');
    const next = pruned.length === BATCH ? ctx.now() : new Date(ctx.now().getTime() + EVERY_MS);
    ctx.enqueueOnSuccess(pruneFinishedJobsJob(next));
  };
}
