// The DATA_DIR lock (server/storage-lock.ts), in this process: a lock recorded under this process's own
// pid is an earlier process's (a container restarted after kill -9 often gets the same pid), unless this
// process holds the folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockStorage, StorageLocked } from '../server/storage-lock.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folderLeftBy(pid: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'storage-lock-'));
  folders.push(folder);
  // What a holder killed a moment ago leaves: the lock folder, freshly refreshed, and its pid file.
  mkdirSync(path.join(folder, '.server.lock'));
  writeFileSync(path.join(folder, '.server.pid'), JSON.stringify({ pid, host: hostname(), since: new Date().toISOString() }));
  return folder;
}

describe('DATA_DIR lock', () => {
  it('takes over a fresh lock recorded under its own pid by an earlier process, and refuses a folder it holds', { timeout: 20_000 }, async () => {
    const folder = folderLeftBy(process.pid);
    const lock = await lockStorage(folder, () => undefined);
    expect(JSON.parse(readFileSync(path.join(folder, '.server.pid'), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await expect(lockStorage(folder, () => undefined)).rejects.toBeInstanceOf(StorageLocked);
    await lock.release();
    const again = await lockStorage(folder, () => undefined);
    await again.release();
  });
});
