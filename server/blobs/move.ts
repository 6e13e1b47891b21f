// `npm run admin -- move-files --to <backend>`: moves every blob's bytes to one backend, one blob at a
// time: copied through a spool file (hashed on the way: the source must hold the bytes its name says),
// written to the target, read back and hashed again, then the row is pointed at the target and the source
// copy deleted. Readers follow the row (and read it again when the bytes moved under them), so the server
// keeps serving throughout. Stopped at any point, a second run carries on: moved blobs are not selected
// again, and a half-moved one is copied again (its writes are idempotent).
import { createHash } from 'node:crypto';
import { and, asc, eq, gt, isNotNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { blobs } from '../db/schema/index.js';
import type { BlobBackend, BlobBackendKind } from './backend.js';
import { spool } from './spool.js';
import { backendOf, blobStore } from './store.js';

export interface MoveReport {
  moved: number;
  bytes: number;
  /** Blobs that could not be moved, with why (left where they were). */
  failed: { sha256: string; reason: string }[];
}

const BATCH = 100;

async function hashOf(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest('hex');
}

/** Moves one blob from `source` to `target`; throws why it could not (nothing changed then but a copy in the target). */
async function moveBlob(db: Db, row: { sha256: string; size: number }, source: BlobBackend, target: BlobBackend): Promise<void> {
  const copied = await spool(await source.open(db, row.sha256, row.size), blobStore().spoolDir, Number.MAX_SAFE_INTEGER);
  try {
    if (copied.sha256 !== row.sha256) throw new Error(`the ${source.kind} copy hashes to ${copied.sha256}: not moved`);
    await target.put(db, row.sha256, { path: copied.path, size: copied.size });
  } finally {
    await copied.discard();
  }
  const written = await hashOf(await target.open(db, row.sha256, row.size));
  if (written !== row.sha256) throw new Error(`the ${target.kind} copy reads back as ${written}: not moved`);
  const [switched] = await db
    .update(blobs)
    .set({ backend: target.kind })
    .where(and(eq(blobs.sha256, row.sha256), eq(blobs.backend, source.kind)))
    .returning({ sha256: blobs.sha256 });
  if (switched) await source.delete(db, row.sha256);
}

/**
 * Moves every stored blob not in `to` there, `concurrency` at a time; `onProgress` hears of each one (when
 * it throws, the move stops: what was moved stays moved).
 */
export async function moveBlobs(db: Db, to: BlobBackendKind, onProgress?: (done: number, sha256: string) => void, concurrency = 8): Promise<MoveReport> {
  const target = backendOf(to);
  await target.check(db);
  const report: MoveReport = { moved: 0, bytes: 0, failed: [] };
  let after = '';
  for (;;) {
    const rows = await db
      .select({ sha256: blobs.sha256, size: blobs.size, backend: blobs.backend })
      .from(blobs)
      .where(and(ne(blobs.backend, to), isNotNull(blobs.storedAt), gt(blobs.sha256, after)))
      .orderBy(asc(blobs.sha256))
      .limit(BATCH);
    if (rows.length === 0) return report;
    after = rows[rows.length - 1]!.sha256;
    let next = 0;
    let stopped: unknown;
    const worker = async () => {
      while (next < rows.length && stopped === undefined) {
        const row = rows[next++]!;
        try {
          await moveBlob(db, row, backendOf(row.backend), target);
        } catch (err) {
          report.failed.push({ sha256: row.sha256, reason: (err as Error).message });
          continue;
        }
        report.moved++;
        report.bytes += row.size;
        try {
          onProgress?.(report.moved, row.sha256);
        } catch (err) {
          stopped ??= err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
    if (stopped !== undefined) throw stopped;
  }
}
