// The purge: spaces deleted longer ago than the restore window are removed for good, a bounded batch
// per run, hourly. It reschedules itself, and its uniqueKey keeps one pending across all processes.
import { inArray, lt } from 'drizzle-orm';
import { spaces } from '../db/schema/index.js';
import type { EnqueueInput } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/runner.js';
import { RESTORE_WINDOW_MS } from './spaces.store.js';

export const PURGE_DELETED_SPACES = 'purge-deleted-spaces';
const EVERY_MS = 60 * 60 * 1000;
// One statement deleting at most this many keeps each run's locks and transaction short.
const BATCH = 1000;

/** The next purge, due at `runAt` (default: when enqueued). */
export function purgeDeletedSpacesJob(runAt?: Date): EnqueueInput {
  // Many attempts: with the capped backoff they span hours of database trouble before the chain of
  // runs breaks (the next server start enqueues it again).
  return { kind: PURGE_DELETED_SPACES, uniqueKey: PURGE_DELETED_SPACES, runAt, maxAttempts: 20 };
}

/** Deletes one batch of spaces past the restore window; the next run is at once when the batch was full, else in an hour. */
export const purgeDeletedSpaces: JobHandler = async (_payload, ctx) => {
  // Strictly older than the window, as restoreSpace refuses only past it: a restorable space is never purged.
  const cutoff = new Date(ctx.now().getTime() - RESTORE_WINDOW_MS);
  const expired = ctx.db.select({ id: spaces.id }).from(spaces).where(lt(spaces.deletedAt, cutoff)).limit(BATCH);
  const purged = await ctx.db.delete(spaces).where(inArray(spaces.id, expired)).returning({ id: spaces.id });
  if (purged.length > 0) ctx.log.info({ purged: purged.length }, 'purged deleted spaces');
  const next = purged.length === BATCH ? ctx.now() : new Date(ctx.now().getTime() + EVERY_MS);
  ctx.enqueueOnSuccess(purgeDeletedSpacesJob(next));
};
