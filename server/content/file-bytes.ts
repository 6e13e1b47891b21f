// The bytes of inserted files. A batch's files are read before its transaction opens (a file given by
// `url` is fetched through the outbound guard: public addresses only, a deadline, a cap on the bytes),
// so no slow fetch holds the space's lock; the bytes are written in the transaction that writes the
// revision listing them (content_files, one row per space and file id).
import { and, eq, sql } from 'drizzle-orm';
import { imageSize } from 'image-size';
import type { z } from 'zod';
import type { ChangeRequestContentChange } from '../../contract/change-requests.js';
import type { Ctx } from '../context.js';
import { contentFiles } from '../db/schema/index.js';
import { BadRequest, TooLarge } from '../errors.js';
import { outboundRequest, OutboundTooLarge, type OutboundLimits } from '../http/outbound.js';
import type { StoredFile } from './revision-content.js';

type Change = z.output<typeof ChangeRequestContentChange>;
type InsertedFile = Extract<Change, { operation: 'insert_files' }>['files'][number];

/** The largest file kept, in bytes: a file over it is refused (413). */
export const FILE_MAX_BYTES = 4 * 1024 * 1024;
const fetchLimits: OutboundLimits = { timeoutMs: 10_000, maxBytes: FILE_MAX_BYTES };

export interface FileBytes {
  bytes: Buffer;
  /** The type given, or the one the URL answered with; undefined when neither says. */
  contentType?: string;
  dimensions?: { width: number; height: number };
}

/** The bytes of every inserted file of a batch, by `changes[i].files[j]` position. */
export type PreparedFiles = Map<string, FileBytes>;

export const preparedKey = (change: number, file: number) => `${change}/${file}`;

/** Width and height of an image, read from its header; undefined for other files or unreadable images. */
function dimensionsOf(bytes: Buffer): FileBytes['dimensions'] {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

function tooLarge(at: string, name: string): TooLarge {
  return new TooLarge(`${at}: file ${name} is larger than ${FILE_MAX_BYTES} bytes, the most a file may have`);
}

/** Decodes or fetches one inserted file; 400 naming it when it cannot be fetched, 413 over the cap. */
async function prepareFile(input: InsertedFile, at: string, limits: OutboundLimits): Promise<FileBytes> {
  let file: FileBytes;
  if ('base64' in input) {
    file = { bytes: Buffer.from(input.base64, 'base64'), contentType: input.contentType };
  } else {
    try {
      const res = await outboundRequest(input.url, limits, { origin: 'user', headers: { accept: '*/*' } });
      if (res.status < 200 || res.status > 299) throw new Error(`${input.url} answered ${res.status}`);
      const answered = res.headers.get('content-type')?.split(';')[0]?.trim();
      file = { bytes: res.body, contentType: input.contentType ?? (answered || undefined) };
    } catch (err) {
      if (err instanceof OutboundTooLarge) throw tooLarge(at, input.name);
      throw new BadRequest(`${at}.url: file ${input.name} could not be fetched: ${(err as Error).message}`);
    }
  }
  if (file.bytes.length > FILE_MAX_BYTES) throw tooLarge(at, input.name);
  return { ...file, dimensions: dimensionsOf(file.bytes) };
}

/** Decodes or fetches every file the batch inserts, the fetches side by side (at most 20 files a change). */
export async function prepareFiles(changes: Change[], limits: OutboundLimits = fetchLimits): Promise<PreparedFiles> {
  const jobs: Promise<[string, FileBytes]>[] = [];
  for (const [i, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [j, input] of change.files.entries()) {
      jobs.push(prepareFile(input, `body.changes[${i}].files[${j}]`, limits).then((file) => [preparedKey(i, j), file]));
    }
  }
  // The first refusal in batch order is the one reported.
  const settled = await Promise.allSettled(jobs);
  const refused = settled.find((s) => s.status === 'rejected');
  if (refused) throw refused.reason;
  return new Map(settled.map((s) => (s as PromiseFulfilledResult<[string, FileBytes]>).value));
}

/** Writes the bytes of the files a batch inserted into the space (in the batch's transaction). */
export async function saveFiles(tx: Ctx, spaceId: string, files: { file: StoredFile; bytes: Buffer }[]): Promise<void> {
  if (files.length === 0) return;
  const now = tx.now();
  await tx.db
    .insert(contentFiles)
    .values(files.map(({ file, bytes }) => ({ spaceId, fileId: file.id, name: file.name, contentType: file.contentType, size: bytes.length, bytes, createdAt: now })))
    .onConflictDoNothing();
}

/** Copies the bytes of every file of a space to another (duplicateSpace), in the caller's transaction. */
export async function copyFiles(tx: Ctx, fromSpaceId: string, toSpaceId: string): Promise<void> {
  await tx.db.execute(sql`
    INSERT INTO content_files (space_id, file_id, name, content_type, size, bytes, created_at)
    SELECT ${toSpaceId}, file_id, name, content_type, size, bytes, created_at FROM content_files WHERE space_id = ${fromSpaceId}`);
}

/** The stored file `fileId` of the space, bytes included; undefined when it has none. */
export async function loadFile(db: Ctx['db'], spaceId: string, fileId: string) {
  const [row] = await db.select().from(contentFiles).where(and(eq(contentFiles.spaceId, spaceId), eq(contentFiles.fileId, fileId)));
  return row;
}
