// The state changes of a job row a runner makes: claim, complete, record a failure. Every change after
// the claim is fenced by (status 'running', attempts): a worker whose lease expired and was taken over
// changes nothing, so the new holder's outcome stands.
import { and, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { enqueueJob, type EnqueueInput } from './queue.js';

export type JobRow = typeof jobs.$inferSelect;

// Long errors (stack-like messages, SQL) would bloat the row; the log has the whole error.
const MAX_ERROR_LENGTH = 2000;

/**
 * Claims the next due job of one of `kinds` — queued and due, or running with an expired lease (its
 * worker died) — in one statement; null when none is due.
 */
export async function claimJob(db: Db, kinds: string[], now: Date, leaseMs: number): Promise<JobRow | null> {
  // SKIP LOCKED: racing workers each take a different row instead of queueing behind the same one.
  // Under READ COMMITTED, the row lock re-checks the WHERE on the newest version, so a row another
  // worker claimed meanwhile is no longer due and is not taken twice.
  const next = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.kind, kinds),
        or(and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)), and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, now))),
      ),
    )
    .orderBy(jobs.runAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(jobs)
    .set({ status: 'running', attempts: sql`${jobs.attempts} + 1`, lockedUntil: new Date(now.getTime() + leaseMs), updatedAt: now })
    .where(eq(jobs.id, next))
    .returning();
  return row ?? null;
}

function stillHeld(job: JobRow) {
  return and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.attempts, job.attempts));
}

/** Marks a claimed job done and enqueues its follow-ups in the same transaction; false when its claim was lost. */
export async function completeJob(db: Db, job: JobRow, followUps: EnqueueInput[], now: Date): Promise<boolean> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const done = await tx
      .update(jobs)
      .set({ status: 'done', lockedUntil: null, updatedAt: now })
      .where(stillHeld(job))
      .returning({ id: jobs.id });
    if (done.length === 0) return false;
    // After the update, so a follow-up with this job's uniqueKey (a job rescheduling itself) no longer
    // meets the running row in jobs_unique_key_idx.
    for (const followUp of followUps) await enqueueJob(tx, followUp, now);
    return true;
  });
}

/** Records a failed attempt: queued again for `retryAt`, or failed for good when `retryAt` is null; false when its claim was lost. */
export async function recordFailure(db: Db, job: JobRow, error: string, retryAt: Date | null, now: Date): Promise<boolean> {
  const updated = await db
    .update(jobs)
    .set({
      status: retryAt ? 'queued' : 'failed',
      runAt: retryAt ?? job.runAt,
      lockedUntil: null,
      lastError: error.slice(0, MAX_ERROR_LENGTH),
      updatedAt: now,
    })
    .where(stillHeld(job))
    .returning({ id: jobs.id });
  return updated.length > 0;
}

/** Extends a running job's lease (the heartbeat of a long job); false when its claim was lost. */
export async function renewLease(db: Db, job: JobRow, lockedUntil: Date, now: Date): Promise<boolean> {
  const renewed = await db.update(jobs).set({ lockedUntil, updatedAt: now }).where(stillHeld(job)).returning({ id: jobs.id });
  return renewed.length > 0;
}

/**
 * Makes every running claim expire now, so the runner takes those jobs over at once. Only for embedded
 * storage at start: the DATA_DIR lock (server/storage-lock.ts) proves no other process is alive, so a
 * `running` job there was held by a process that died (kill -9, power loss) and will never finish it.
 */
export async function expireOrphanedClaims(db: Db, now: Date): Promise<number> {
  const expired = await db
    .update(jobs)
    .set({ lockedUntil: now, updatedAt: now })
    .where(and(eq(jobs.status, 'running'), sql`${jobs.lockedUntil} > ${now}`))
    .returning({ id: jobs.id });
  return expired.length;
}
