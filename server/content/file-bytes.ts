// The bytes of inserted files. A batch's files are read before its transaction opens (a file given by
// `url` is fetched through the outbound guard: public addresses only, a deadline, a cap on the bytes) and
// stored as blobs (server/blobs/), streamed from the URL to the file store without being held in memory;
// so no slow fetch or upload holds the space's lock. The transaction that writes the revision listing
// them writes the space's content_files rows, which refer to the blobs by sha256.
import { imageSize } from 'image-size';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChangeRequestContentChange } from '../../contract/change-requests.js';
import { BlobTooLarge, putBlobBytes, putBlobStream, type StoredBlob } from '../blobs/blobs.js';
import { blobStore } from '../blobs/store.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { contentFiles } from '../db/schema/index.js';
import { ApiError, BadRequest, TooLarge } from '../errors.js';
import { outboundStream, OutboundTooLarge, type OutboundLimits } from '../http/outbound.js';
import type { StoredFile } from './revision-content.js';

type Change = z.output<typeof ChangeRequestContentChange>;
type InsertedFile = Extract<Change, { operation: 'insert_files' }>['files'][number];

/** The fetch of a file given by URL: 10 s to answer, then at least 1 MiB/s for its body. */
function fetchLimits(): OutboundLimits {
  const { maxBytes } = blobStore();
  return { timeoutMs: 10_000 + Math.ceil(maxBytes / 1024), maxBytes };
}

/** A file of the batch, stored: its blob, and what was learnt reading it. */
export interface PreparedFile {
  sha256: string;
  size: number;
  /** The type given, or the one the URL answered with; undefined when neither says. */
  contentType?: string;
  dimensions?: { width: number; height: number };
}

/** The stored bytes of every inserted file of a batch, by `changes[i].files[j]` position. */
export type PreparedFiles = Map<string, PreparedFile>;

export const preparedKey = (change: number, file: number) => `${change}/${file}`;

/** Width and height of an image, read from its header; undefined for other files or unreadable images. */
function dimensionsOf(head: Buffer): PreparedFile['dimensions'] {
  try {
    const { width, height } = imageSize(head);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

function tooLarge(at: string, name: string): TooLarge {
  return new TooLarge(`${at}: file ${name} is larger than ${blobStore().maxBytes} bytes, the most a file may have`);
}

/** Streams the URL's body into the store; 400 naming the file when it cannot be fetched. */
async function fetchFile(db: Db, input: Extract<InsertedFile, { url: string }>, at: string, limits: OutboundLimits): Promise<{ blob: StoredBlob; contentType?: string }> {
  try {
    const res = await outboundStream(input.url, limits, { origin: 'user', headers: { accept: '*/*' } });
    if (res.status < 200 || res.status > 299) {
      for await (const _ of res.body) break;
      throw new Error(`${input.url} answered ${res.status}`);
    }
    const answered = res.headers.get('content-type')?.split(';')[0]?.trim();
    return { blob: await putBlobStream(db, res.body), contentType: input.contentType ?? (answered || undefined) };
  } catch (err) {
    if (err instanceof OutboundTooLarge || err instanceof BlobTooLarge) throw tooLarge(at, input.name);
    // The file store down is the server's trouble, not the input's: 503 as it is.
    if (err instanceof ApiError) throw err;
    throw new BadRequest(`${at}.url: file ${input.name} could not be fetched: ${(err as Error).message}`);
  }
}

/** Decodes or fetches one inserted file and stores its bytes; 400 naming it when it cannot be fetched, 413 over the cap. */
async function prepareFile(db: Db, input: InsertedFile, at: string, limits: OutboundLimits): Promise<PreparedFile> {
  let stored: { blob: StoredBlob; contentType?: string };
  if ('base64' in input) {
    try {
      stored = { blob: await putBlobBytes(db, Buffer.from(input.base64, 'base64')), contentType: input.contentType };
    } catch (err) {
      if (err instanceof BlobTooLarge) throw tooLarge(at, input.name);
      throw err;
    }
  } else {
    stored = await fetchFile(db, input, at, limits);
  }
  const { blob, contentType } = stored;
  return { sha256: blob.sha256, size: blob.size, contentType, dimensions: dimensionsOf(blob.head) };
}

/** Decodes or fetches every file the batch inserts into the store, the fetches side by side (at most 20 files a change). */
export async function prepareFiles(db: Db, changes: Change[], limits: OutboundLimits = fetchLimits()): Promise<PreparedFiles> {
  const jobs: Promise<[string, PreparedFile]>[] = [];
  for (const [i, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [j, input] of change.files.entries()) {
      jobs.push(prepareFile(db, input, `body.changes[${i}].files[${j}]`, limits).then((file) => [preparedKey(i, j), file]));
    }
  }
  // The first refusal in batch order is the one reported.
  const settled = await Promise.allSettled(jobs);
  const refused = settled.find((s) => s.status === 'rejected');
  if (refused) throw refused.reason;
  return new Map(settled.map((s) => (s as PromiseFulfilledResult<[string, PreparedFile]>).value));
}

/**
 * Records the files a batch inserted into the space (in the batch's transaction). Their blobs were touched
 * when stored (prepareFiles), which holds the collector off for its grace period; the foreign key holds it
 * off for good once this commits.
 */
export async function saveFiles(tx: Ctx, spaceId: string, files: { file: StoredFile; sha256: string }[]): Promise<void> {
  if (files.length === 0) return;
  const now = tx.now();
  await tx.db
    .insert(contentFiles)
    .values(files.map(({ file, sha256 }) => ({ spaceId, fileId: file.id, name: file.name, contentType: file.contentType, size: file.size, sha256, createdAt: now })))
    .onConflictDoNothing();
}

/** Gives another space (duplicateSpace) every file of a space: new rows, the same blobs (no bytes copied). */
export async function copyFiles(tx: Ctx, fromSpaceId: string, toSpaceId: string): Promise<void> {
  await tx.db.execute(sql`
    INSERT INTO content_files (space_id, file_id, name, content_type, size, sha256, created_at)
    SELECT ${toSpaceId}, file_id, name, content_type, size, sha256, created_at FROM content_files WHERE space_id = ${fromSpaceId}`);
}

/** The stored file `fileId` of the space (its blob's sha256, not its bytes); undefined when it has none. */
export async function loadFile(db: Db, spaceId: string, fileId: string) {
  const [row] = await db.select().from(contentFiles).where(and(eq(contentFiles.spaceId, spaceId), eq(contentFiles.fileId, fileId)));
  return row;
}
