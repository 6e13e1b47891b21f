// A Git Sync operation's pack is fetched and indexed in a thread of its own (pack-fetch-index.ts), with a
// small young generation, while the server's thread waits for the index. Why: that work allocates almost
// nothing that lives (its bytes are Buffers outside the heap), and V8 sizes the old generation's room after
// a full collection from how fast the old generation grew: with the server's ~90 MB heap growing at a few
// hundred bytes a millisecond, the room left (about 1.1 times the live heap plus the young generation's
// size, 32 MB by default) is under the young generation's size, which starts the next marking at once.
// On the server's thread a 500 MB import ran one full collection every 0.2-0.5 s, each marking the whole
// server's heap to find 2-5 MB of garbage (`--trace-gc-verbose`: "factor 1.1 ... speed_ratio=2064";
// docs/benchmarks.md). In a thread of its own the heap is small and its young generation smaller than
// the room left, so no collection is started by that rule, and the server's own flags stay as they are.
import { rm } from 'node:fs/promises';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import type { Spooled } from '../blobs/spool.js';
import { RepositoryTooLarge } from './git-http.js';
import type { FetchAndIndex, SpoolFile } from './pack-fetch-index.js';
import type { PackIndex } from './pack-reader.js';

/**
 * The thread's young generation (V8 makes a semi-space a third of it). After a full collection V8 leaves the
 * old generation at least 8 MB of room plus a semi-space; it starts marking again when that room is under
 * what it reserves for the young generation. Measured on a 500 MB import (`--trace-gc`, the thread's own
 * lines): with 6 MB the thread still collected its 12 MB heap fully about 100 times ("allocation limit",
 * 10 MB of room left), as with the default size; with 3 MB, an inflate, two hashes and a file write of
 * 240 MB in a thread holding 12 MB of objects made 1 full collection against 13 to 17.
 */
const YOUNG_GENERATION_MB = 3;

interface Answer {
  id: number;
  index?: PackIndex<SpoolFile>;
  error?: { kind: string; message: string };
}

class PackThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (index: PackIndex<SpoolFile>) => void; reject: (err: Error) => void }>();
  private nextId = 1;

  constructor(onStop: () => void) {
    // The module beside this one, from the sources (.ts, with tsx) or built (.js).
    const module = new URL(`./pack-fetch-index${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;
    // SHARE_ENV: ALLOW_PRIVATE_FETCH is read at each fetch, as on the server's thread.
    this.worker = new Worker(new URL('./pack-thread-worker.mjs', import.meta.url), { workerData: { module }, env: SHARE_ENV, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    this.worker.unref();
    this.worker.on('message', ({ id, index, error }: Answer) => {
      const waiter = this.waiting.get(id);
      if (!waiter) return;
      this.waiting.delete(id);
      if (this.waiting.size === 0) this.worker.unref();
      if (error) waiter.reject(error.kind === 'RepositoryTooLarge' ? new RepositoryTooLarge(error.message) : new Error(error.message));
      else waiter.resolve(index!);
    });
    const stop = (err: Error) => {
      onStop();
      for (const waiter of this.waiting.values()) waiter.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', (err) => stop(new Error(`The Git pack thread failed: ${err.message}`)));
    this.worker.on('exit', (code) => stop(new Error(`The Git pack thread stopped (${code})`)));
  }

  run(job: FetchAndIndex): Promise<PackIndex<SpoolFile>> {
    const id = this.nextId++;
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, job });
    });
  }
}

let thread: PackThread | undefined;

/** Fetches and indexes a pack in the thread (started at the first call, kept while the process runs); the spools it made are the caller's. */
export async function fetchAndIndexInThread(job: FetchAndIndex): Promise<PackIndex<Spooled>> {
  thread ??= new PackThread(() => (thread = undefined));
  const { objects, kept } = await thread.run(job);
  return { objects, kept: kept.map(([oid, file]) => [oid, { ...file, head: Buffer.alloc(0), discard: () => rm(file.path, { force: true }) }]) };
}
