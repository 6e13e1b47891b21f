// Bytes in a folder (FILES_DIR, default DATA_DIR/files), for a single server: `<dir>/ab/cd/<sha256>`,
// written to a temporary name and renamed, so a reader never sees half a file.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BlobMissing, BlobStoreUnavailable, type BlobBackend } from './backend.js';

/** Errors that mean the folder cannot be used (not: this blob is absent). */
function unavailable(err: unknown): never {
  const code = (err as NodeJS.ErrnoException).code;
  throw new BlobStoreUnavailable('folder', code ? `${code}: ${(err as Error).message}` : String(err));
}

export function folderBackend(dir: string): BlobBackend {
  const pathOf = (sha256: string) => path.join(dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  return {
    kind: 'folder',
    async put(_db, sha256, source) {
      const target = pathOf(sha256);
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await mkdir(path.dirname(target), { recursive: true });
        if ('buffer' in source) await writeFile(temporary, source.buffer);
        // A spool in this folder's .spool (blobs.ts puts it there) moves without a copy.
        else await rename(source.path, temporary).catch(() => copyFile(source.path, temporary));
        await rename(temporary, target);
      } catch (err) {
        await rm(temporary, { force: true }).catch(() => undefined);
        unavailable(err);
      }
    },
    async open(_db, sha256, _size, range) {
      const file = pathOf(sha256);
      try {
        await access(file, constants.R_OK);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobMissing(`${file} does not exist`);
        unavailable(err);
      }
      return createReadStream(file, range && { start: range.start, end: range.end });
    },
    filePath: pathOf,
    async delete(_db, sha256) {
      await rm(pathOf(sha256), { force: true }).catch(unavailable);
    },
    async check() {
      try {
        await mkdir(dir, { recursive: true });
        await access(dir, constants.R_OK | constants.W_OK);
      } catch (err) {
        unavailable(err);
      }
    },
  };
}
