// Which backends this process reads and writes file bytes with: set once at start from the configuration
// (server/index.ts), like the server's origin for scripts; a process has one store. Tests that run a
// workflow on each backend set it per suite. Unset: bytes in the database, 4 MiB a file (the defaults).
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileStoreSettings } from '../config.js';
import type { BlobBackend, BlobBackendKind } from './backend.js';
import { databaseBackend } from './database-backend.js';
import { folderBackend } from './folder-backend.js';
import { s3Backend } from './s3-backend.js';

export interface BlobStore {
  /** Where new bytes are written. */
  primary: BlobBackend;
  /** Every backend bytes may be read from (a blob's row says which holds it). */
  backends: Partial<Record<BlobBackendKind, BlobBackend>>;
  /** The largest file kept, in bytes. */
  maxBytes: number;
  /** Where streamed uploads are spooled while hashed. */
  spoolDir: string;
  /** How long an unreferenced blob is kept. */
  graceMs: number;
}

export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const DEFAULT_GRACE_MS = 24 * 3_600_000;

let configured: BlobStore | undefined;

/** The store for these settings: the database always, the folder always (it is local), S3 when a bucket is set. */
export function blobStoreFrom(settings: FileStoreSettings): BlobStore {
  const backends: BlobStore['backends'] = { database: databaseBackend(), folder: folderBackend(settings.dir) };
  if (settings.s3) backends.s3 = s3Backend(settings.s3);
  const primary = backends[settings.backend];
  if (!primary) throw new Error(`FILES_BACKEND=${settings.backend} needs its settings (S3_BUCKET)`);
  // A folder store spools beside its files, so a finished upload is moved in, not copied.
  const spoolDir = settings.backend === 'folder' ? path.join(settings.dir, '.spool') : path.join(tmpdir(), 'docs-workspace-api-spool');
  return { primary, backends, maxBytes: settings.maxBytes, spoolDir, graceMs: settings.graceMs };
}

/** Makes `store` this process's (server start, or a test suite on one backend). */
export function configureBlobStore(store: BlobStore | undefined): void {
  configured = store;
}

const fallback: BlobStore = {
  primary: databaseBackend(),
  backends: {},
  maxBytes: DEFAULT_MAX_BYTES,
  spoolDir: path.join(tmpdir(), 'docs-workspace-api-spool'),
  graceMs: DEFAULT_GRACE_MS,
};
fallback.backends.database = fallback.primary;

export function blobStore(): BlobStore {
  return configured ?? fallback;
}

/** The backend holding blobs recorded as `kind`; an error naming the missing setting when this process has none. */
export function backendOf(kind: BlobBackendKind): BlobBackend {
  const backend = blobStore().backends[kind];
  if (!backend) throw new Error(`a blob is kept in ${kind} but this process has no ${kind} backend configured (S3_BUCKET)`);
  return backend;
}
