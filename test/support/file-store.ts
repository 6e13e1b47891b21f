// Which file store (server/blobs/) a test file's server keeps bytes in. The suite runs on the database
// backend (the default); CI runs the file, Git Sync and published-site file tests again with
// TEST_FILES_BACKEND=folder and =s3 (a local s3rver started here), and the blob tests walk every backend
// with `useFileStore`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { blobStoreFrom, configureBlobStore, type BlobStore } from '../../server/blobs/store.js';
import type { FileStoreSettings } from '../../server/config.js';
import { startLocalS3, type LocalS3 } from './s3-server.js';

export type BackendKind = FileStoreSettings['backend'];
export const backendKinds: BackendKind[] = ['database', 'folder', 's3'];

export interface TestFileStore {
  kind: BackendKind;
  settings: FileStoreSettings;
  store: BlobStore;
  /** The local S3 server, when there is one. */
  s3?: LocalS3;
  stop(): Promise<void>;
}

/** Starts what `kind` needs (a folder, s3rver) and makes it this process's store; `stop` undoes both. */
export async function startFileStore(kind: BackendKind, overrides: Partial<FileStoreSettings> = {}, options: { withS3?: boolean } = {}): Promise<TestFileStore> {
  const dir = mkdtempSync(path.join(tmpdir(), 'files-'));
  // `withS3`: a bucket beside another primary, to move blobs there (move-files).
  const s3 = kind === 's3' || options.withS3 ? await startLocalS3() : undefined;
  const settings: FileStoreSettings = { backend: kind, dir, s3: s3?.settings, maxBytes: 4 * 1024 * 1024, graceMs: 24 * 3_600_000, ...overrides };
  const store = blobStoreFrom(settings);
  configureBlobStore(store);
  return {
    kind,
    settings,
    store,
    s3,
    async stop() {
      configureBlobStore(undefined);
      await s3?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The store TEST_FILES_BACKEND names, for the whole test file (nothing when unset: the database default). */
export function useFileStoreFromEnvironment(): void {
  const kind = process.env.TEST_FILES_BACKEND as BackendKind | undefined;
  if (!kind || kind === 'database') return;
  if (!backendKinds.includes(kind)) throw new Error(`TEST_FILES_BACKEND must be one of ${backendKinds.join(', ')}`);
  let started: TestFileStore | undefined;
  beforeAll(async () => {
    started = await startFileStore(kind);
  });
  afterAll(() => started?.stop());
}
