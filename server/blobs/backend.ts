// What every place file bytes can live in offers (the database, a folder, S3): bytes named by their sha256,
// written whole and read as a stream, all of them or a range. Backends know nothing of files, spaces or
// HTTP; blobs.ts decides where bytes go and keeps the `blobs` rows.
import type { Readable } from 'node:stream';
import type { Db } from '../db/client.js';
import { Unavailable } from '../errors.js';

export type BlobBackendKind = 'database' | 'folder' | 's3';

/** Inclusive byte offsets, as in HTTP's Range. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Bytes to write: a spooled file of known size (streamed uploads), or a buffer (small or already in memory). */
export type BlobSource = { path: string; size: number } | { buffer: Buffer };

export interface BlobBackend {
  readonly kind: BlobBackendKind;
  /** Writes the bytes under `sha256`; writing the same name again with the same bytes is harmless. */
  put(db: Db, sha256: string, source: BlobSource): Promise<void>;
  /** The bytes (or `range` of them) as a stream; BlobMissing when the backend has none under that name. */
  open(db: Db, sha256: string, size: number, range?: ByteRange): Promise<Readable>;
  /** Deletes the bytes; nothing when there are none. */
  delete(db: Db, sha256: string): Promise<void>;
  /** Resolves when the backend answers (readiness); throws why it does not. */
  check(db: Db): Promise<void>;
  /** The file on this machine holding the bytes, for a backend that keeps them so (a folder): another thread reads it directly (the Git push, server/git-sync/pack-thread.ts). */
  filePath?(sha256: string): string;
  /** A URL anyone may GET the bytes from for a short while, with the given response headers; undefined when the backend has none. */
  presign?(sha256: string, headers: { contentType: string; contentDisposition: string }): Promise<string | undefined>;
}

/**
 * The backend cannot be reached (network, permissions, a full disk): the operation did nothing and may be
 * retried. A 503 with Retry-After wherever it reaches the HTTP layer; `reason` is for the log only.
 */
export class BlobStoreUnavailable extends Unavailable {
  constructor(
    readonly backend: BlobBackendKind,
    readonly reason: string,
  ) {
    super(`The file store (${backend}) is unavailable; retry shortly`);
  }
}

/** The backend has no bytes under that name. */
export class BlobMissing extends Error {}
