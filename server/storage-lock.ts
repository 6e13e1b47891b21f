// One server per DATA_DIR. PGlite is a single-process database: two processes writing one folder corrupt
// it. The lock is proper-lockfile's (a `.server.lock` folder inside DATA_DIR whose mtime the holder
// refreshes every few seconds); beside it `.server.pid` names the holder, so the refusal can say who.
// After a crash (kill -9, power loss) the lock is left behind: it is stale once its mtime is older than
// STALE_MS, and at once when the recorded process is gone from this host.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** A holder that has not refreshed its lock for this long is presumed dead (its event loop would be stuck longer than any query). */
const STALE_MS = 10_000;
/** When the recorded holder is verifiably dead, its lock is stale after this long (the library's minimum) instead. */
const DEAD_HOLDER_STALE_MS = 2_000;

export class StorageLocked extends Error {}

interface Holder {
  pid: number;
  host: string;
  since: string;
}

export interface StorageLock {
  release(): Promise<void>;
}

function paths(dataDir: string) {
  return { lock: path.join(dataDir, '.server.lock'), pid: path.join(dataDir, '.server.pid') };
}

function readHolder(file: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

/** The folders this process holds: a recorded holder with our own pid that is not among them is an earlier process. */
const heldHere = new Set<string>();

/**
 * Whether `holder` of `folder` is a process of this host that no longer exists (signal 0 checks existence
 * only). A holder with this process's own pid, for a folder this process does not hold, was an earlier
 * process: a container restarted after kill -9 has the same host name and, often, the same pid (1).
 */
function provablyDead(holder: Holder | undefined, folder: string): boolean {
  if (!holder || holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !heldHere.has(folder);
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Takes DATA_DIR for this process, or throws StorageLocked naming the folder and the holder. A lock left
 * by a dead process is taken over (its holder's pid is gone, or it was not refreshed for STALE_MS).
 * `onLost` is called if the lock is taken away while held (the process was frozen past STALE_MS): the
 * caller must stop writing at once.
 */
export async function lockStorage(dataDir: string, onLost: (err: Error) => void): Promise<StorageLock> {
  const folder = path.resolve(dataDir);
  mkdirSync(folder, { recursive: true });
  const files = paths(folder);
  const holder = readHolder(files.pid);
  // A dead holder's lock is still refreshed by nobody: wait out the short threshold (retries cover it).
  const dead = provablyDead(holder, folder);
  const options = {
    lockfilePath: files.lock,
    realpath: false,
    stale: dead ? DEAD_HOLDER_STALE_MS : STALE_MS,
    retries: dead ? { retries: 6, minTimeout: 500, maxTimeout: 500 } : 0,
    onCompromised: onLost,
  };
  let unlock: () => Promise<void>;
  try {
    unlock = await lockfile.lock(folder, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    const who = readHolder(files.pid);
    const by = who ? `process ${who.pid} on ${who.host} (since ${who.since})` : 'another process';
    throw new StorageLocked(
      `DATA_DIR ${folder} is in use by ${by}. Only one server may use an embedded data folder: stop that one, ` +
        'or give this one another DATA_DIR (or DATABASE_URL, for several processes).',
    );
  }
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  writeFileSync(files.pid, `${JSON.stringify(me)}\n`);
  heldHere.add(folder);
  return {
    async release() {
      heldHere.delete(folder);
      rmSync(files.pid, { force: true });
      await unlock();
    },
  };
}
