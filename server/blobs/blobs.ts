// File bytes as content-addressed blobs: written once per sha256 whichever file, revision or space uses
// them, read back (whole or a range) from whichever backend holds them now.
//
// A write first records (or touches) the blob's row, then writes the backend, then marks the row stored.
// The row comes first so the collector knows of every byte written, and touching it holds the collector
// off (it deletes only blobs untouched for its grace period, under the row's lock): bytes that a write
// found already stored are never deleted under it. File rows refer to blobs by foreign key.
import { access, constants } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { uncounted } from '../db/query-count.js';
import { blobs } from '../db/schema/index.js';
import { BlobMissing, type BlobBackend, type BlobSource, type ByteRange } from './backend.js';
import { headOf, spool, SpoolTooLarge, type Spooled } from './spool.js';
import { backendOf, blobStore } from './store.js';
import { createHash } from 'node:crypto';

export interface StoredBlob {
  sha256: string;
  size: number;
  /** The first bytes (at most 1 MiB), e.g. for an image's dimensions. */
  head: Buffer;
}

/** More bytes than FILES_MAX_BYTES: nothing was stored. */
export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
  }
}

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Stores `sha256` (its bytes in `source`) unless a backend already has it: records or touches the row, writes
 * the backend, marks it stored. `db` should not be a long transaction (the row is touched at once).
 */
async function storeBlob(db: Db, sha256: string, size: number, source: BlobSource, now: Date): Promise<void> {
  // The file store's own statements (its row, the database backend's chunks) are its I/O, as a folder's
  // or S3's writes are: not counted in the statement budget of the operation that stores the file.
  return uncounted(() => storeBlobCounted(db, sha256, size, source, now));
}

async function storeBlobCounted(db: Db, sha256: string, size: number, source: BlobSource, now: Date): Promise<void> {
  const primary = blobStore().primary;
  const [row] = await db
    .insert(blobs)
    .values({ sha256, size, backend: primary.kind, storedAt: null, touchedAt: now, createdAt: now })
    .onConflictDoUpdate({ target: blobs.sha256, set: { touchedAt: now } })
    .returning({ backend: blobs.backend, storedAt: blobs.storedAt });
  if (row!.storedAt) return;
  try {
    await backendOf(row!.backend).put(db, sha256, source);
  } catch (err) {
    // Nothing of a failed write stays: the row goes unless another write stored it meanwhile.
    await db.delete(blobs).where(and(eq(blobs.sha256, sha256), isNull(blobs.storedAt))).catch(() => undefined);
    throw err;
  }
  await db.update(blobs).set({ storedAt: now }).where(eq(blobs.sha256, sha256));
}

/** Stores bytes already in memory (a base64 upload, a Git blob); BlobTooLarge over the cap (the store's FILES_MAX_BYTES unless `maxBytes` says another, as Git Sync's asset cap). */
export async function putBlobBytes(db: Db, bytes: Uint8Array, now = new Date(), maxBytes = blobStore().maxBytes): Promise<StoredBlob> {
  if (bytes.byteLength > maxBytes) throw new BlobTooLarge(maxBytes);
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sha256 = sha256Of(buffer);
  await storeBlob(db, sha256, buffer.length, { buffer }, now);
  return { sha256, size: buffer.length, head: buffer.subarray(0, 1024 * 1024) };
}

/** Stores a stream (an upload, a fetched URL, a Git Sync asset) without holding it in memory; BlobTooLarge over the cap (as putBlobBytes). */
export async function putBlobStream(db: Db, source: AsyncIterable<Uint8Array>, now = new Date(), maxBytes = blobStore().maxBytes): Promise<StoredBlob> {
  const { spoolDir } = blobStore();
  let spooled;
  try {
    spooled = await spool(source, spoolDir, maxBytes);
  } catch (err) {
    if (err instanceof SpoolTooLarge) throw new BlobTooLarge(maxBytes);
    throw err;
  }
  return putSpooledBlob(db, spooled, now, maxBytes);
}

/** Stores bytes already spooled (spool.ts) and deletes the spool, stored or not; BlobTooLarge over the cap (as putBlobBytes). */
export async function putSpooledBlob(db: Db, spooled: Spooled, now = new Date(), maxBytes = blobStore().maxBytes): Promise<StoredBlob> {
  let head;
  try {
    if (spooled.size > maxBytes) throw new BlobTooLarge(maxBytes);
    // Read before the backend takes the file (a folder store moves it).
    head = await headOf(spooled);
    await storeBlob(db, spooled.sha256, spooled.size, { path: spooled.path, size: spooled.size }, now);
  } finally {
    await spooled.discard();
  }
  return { sha256: spooled.sha256, size: spooled.size, head };
}

export interface BlobRow {
  sha256: string;
  size: number;
  backend: BlobBackend;
}

async function rowOf(db: Db, sha256: string): Promise<BlobRow | undefined> {
  const [row] = await db.select({ sha256: blobs.sha256, size: blobs.size, backend: blobs.backend }).from(blobs).where(eq(blobs.sha256, sha256));
  return row && { ...row, backend: backendOf(row.backend) };
}

/**
 * The bytes of `sha256` (or `range` of them) as a stream, from the backend its row names. When that backend
 * has none, the row is read again once: move-files may have moved the blob between the two reads.
 */
export async function openBlob(db: Db, sha256: string, range?: ByteRange): Promise<Readable> {
  let row = await rowOf(db, sha256);
  for (let attempt = 0; row; attempt++) {
    try {
      return await row.backend.open(db, sha256, row.size, range);
    } catch (err) {
      if (!(err instanceof BlobMissing) || attempt > 0) throw err;
      const again = await rowOf(db, sha256);
      if (!again || again.backend.kind === row.backend.kind) throw err;
      row = again;
    }
  }
  throw new BlobMissing(`no blob ${sha256}`);
}

/** The file holding the bytes of `sha256` when its backend keeps them in one on this machine (a folder) and it is there; else undefined (read them with openBlob). */
export async function blobFilePath(db: Db, sha256: string): Promise<string | undefined> {
  const file = (await rowOf(db, sha256))?.backend.filePath?.(sha256);
  return file && (await access(file, constants.R_OK).then(
    () => file,
    () => undefined,
  ));
}

/** The whole of a blob in memory: for the Git export, whose library writes blobs from buffers. */
export async function readBlobBytes(db: Db, sha256: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openBlob(db, sha256)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A short-lived URL the bytes may be fetched from directly (S3), or undefined (proxy them). */
export async function presignedBlobUrl(db: Db, sha256: string, headers: { contentType: string; contentDisposition: string }): Promise<string | undefined> {
  const row = await rowOf(db, sha256);
  return row?.backend.presign?.(sha256, headers);
}

/** Resolves when the store new bytes go to answers (readiness); throws BlobStoreUnavailable. */
export async function checkBlobStore(db: Db): Promise<void> {
  const store = blobStore();
  await store.primary.check(db);
  // Bytes may also be read from S3 (moved there) while writes go elsewhere.
  if (store.backends.s3 && store.backends.s3 !== store.primary) await store.backends.s3.check(db);
}
