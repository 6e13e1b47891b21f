// Deletes blobs nothing refers to any more (the files of purged spaces, uploads whose batch failed) once
// they have been left alone for the grace period (FILES_GRACE_HOURS): hourly, a bounded batch a run, at
// once again while batches come out full.
//
// Never while a reference exists: each blob goes in a transaction of its own that deletes its row only if
// it is still unreferenced and untouched, and deletes its bytes before committing. A file row being
// written at the same time either committed first (the foreign key then refuses the delete: 23503, the
// blob is skipped) or waits on the row's lock and, once the delete committed, fails its own foreign key:
// the write fails whole, nothing refers to missing bytes. A new write of the same bytes touches the row
// (waiting on the same lock), so it is no longer untouched; or, after the delete, writes the bytes anew.
import { and, eq, lt, notExists, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { blobs, contentFiles } from '../db/schema/index.js';
import type { EnqueueInput } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/runner.js';
import { backendOf, blobStore } from './store.js';

export const COLLECT_BLOBS = 'collect-unreferenced-blobs';
const EVERY_MS = 60 * 60 * 1000;
const BATCH = 100;

/** The next collection, due at `runAt` (default: when enqueued); its uniqueKey keeps one pending across processes. */
export function collectBlobsJob(runAt?: Date): EnqueueInput {
  return { kind: COLLECT_BLOBS, uniqueKey: COLLECT_BLOBS, runAt, maxAttempts: 20 };
}

const unreferenced = notExists(sql`(SELECT 1 FROM ${contentFiles} WHERE ${contentFiles.sha256} = ${blobs.sha256})`);

const isForeignKeyViolation = (err: unknown) => (err as { code?: string })?.code === '23503' || (err as { cause?: { code?: string } })?.cause?.code === '23503';

/** Deletes one blob if it is still unreferenced and untouched since `cutoff`; true when it did. */
export async function collectBlob(db: Db, sha256: string, cutoff: Date): Promise<boolean> {
  try {
    return await db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(blobs)
        .where(and(eq(blobs.sha256, sha256), lt(blobs.touchedAt, cutoff), unreferenced))
        .returning({ backend: blobs.backend });
      if (!gone) return false;
      // The bytes go before the row's delete commits: a failure here keeps both.
      await backendOf(gone.backend).delete(tx as unknown as Db, sha256);
      return true;
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) return false;
    throw err;
  }
}

/** Deletes up to `limit` unreferenced blobs untouched for `graceMs`; how many it deleted and whether it saw a full batch. */
export async function collectBlobs(db: Db, now: Date, graceMs: number, limit = BATCH): Promise<{ deleted: number; full: boolean }> {
  const cutoff = new Date(now.getTime() - graceMs);
  const candidates = await db.select({ sha256: blobs.sha256 }).from(blobs).where(and(lt(blobs.touchedAt, cutoff), unreferenced)).limit(limit);
  let deleted = 0;
  for (const { sha256 } of candidates) if (await collectBlob(db, sha256, cutoff)) deleted++;
  return { deleted, full: candidates.length === limit };
}

export const collectBlobsHandler: JobHandler = async (_payload, ctx) => {
  const { deleted, full } = await collectBlobs(ctx.db, ctx.now(), blobStore().graceMs);
  if (deleted > 0) ctx.log.info({ deleted }, 'deleted unreferenced file blobs past their grace period');
  ctx.enqueueOnSuccess(collectBlobsJob(full ? ctx.now() : new Date(ctx.now().getTime() + EVERY_MS)));
};
