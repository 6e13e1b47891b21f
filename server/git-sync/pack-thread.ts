// A Git Sync operation's pack is fetched and indexed in a thread of its own (pack-fetch-index.ts), with a
// small young generation, while the server's thread waits for the index; an export's pack is written and
// pushed there too when its large objects are files on this machine (pack-push-job.ts). Why: that work allocates almost
// nothing that lives (its bytes are Buffers outside the heap), and V8 sizes the old generation's room after
// a full collection from how fast the old generation grew: growing by a few hundred bytes a millisecond,
// the server's ~90 MB heap gets a limit of 1.1 times its live size plus a semi-space (32 MB by default), a
// room of about 40 MB, under what V8 keeps for the young generation, so the next marking starts at once.
// On the server's thread a 500 MB import ran 82 full collections, one every 0.2-0.5 s, each marking the
// server's whole heap to find 2-5 MB of garbage (`--trace-gc-verbose`: "factor 1.1 ... speed_ratio=2064",
// then "[IncrementalMarking] Start (task)" at once; docs/benchmarks.md). V8's rule holds in a thread too,
// but there it marks the thread's 12 MB heap (about 15 ms each), and the server's thread, whose own flags
// stay as they are, ran 7 during the import. A push is the same work the other way (500 MB read, deflated
// in stored blocks, hashed, sent): with it on the server's thread, the collector took 3.7 s of the 9.3 s a 500 MB
// export kept that thread busy.
import { rm } from 'node:fs/promises';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import type { Spooled } from '../blobs/spool.js';
import { RepositoryTooLarge } from './git-http.js';
import type { FetchAndIndex, SpoolFile } from './pack-fetch-index.js';
import type { PushJob } from './pack-push-job.js';
import type { JobName } from './pack-thread-jobs.js';
import type { PackIndex } from './pack-reader.js';

/**
 * The thread's young generation (V8 makes a semi-space a third of it). Measured on a 500 MB import
 * (`--trace-gc`, the thread's own lines): with V8's default size the thread ran 96 full collections (1.5 s
 * of pauses and steps), with 6 MB about 100, with 3 MB 61 (0.9 s).
 */
const YOUNG_GENERATION_MB = 3;

interface Answer {
  id: number;
  result?: unknown;
  error?: { kind: string; message: string };
}

class PackThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (result: unknown) => void; reject: (err: Error) => void }>();
  private nextId = 1;

  constructor(onStop: () => void) {
    // The module beside this one, from the sources (.ts, with tsx) or built (.js).
    const module = new URL(`./pack-thread-jobs${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;
    // SHARE_ENV: ALLOW_PRIVATE_FETCH is read at each fetch, as on the server's thread.
    this.worker = new Worker(new URL('./pack-thread-worker.mjs', import.meta.url), { workerData: { module }, env: SHARE_ENV, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    this.worker.unref();
    this.worker.on('message', ({ id, result, error }: Answer) => {
      const waiter = this.waiting.get(id);
      if (!waiter) return;
      this.waiting.delete(id);
      if (this.waiting.size === 0) this.worker.unref();
      if (error) waiter.reject(error.kind === 'RepositoryTooLarge' ? new RepositoryTooLarge(error.message) : new Error(error.message));
      else waiter.resolve(result);
    });
    const stop = (err: Error) => {
      onStop();
      for (const waiter of this.waiting.values()) waiter.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', (err) => stop(new Error(`The Git pack thread failed: ${err.message}`)));
    this.worker.on('exit', (code) => stop(new Error(`The Git pack thread stopped (${code})`)));
  }

  run(name: JobName, job: unknown): Promise<unknown> {
    const id = this.nextId++;
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, name, job });
    });
  }
}

let thread: PackThread | undefined;

/** Fetches and indexes a pack in the thread (started at the first call, kept while the process runs); the spools it made are the caller's. */
export async function fetchAndIndexInThread(job: FetchAndIndex): Promise<PackIndex<Spooled>> {
  thread ??= new PackThread(() => (thread = undefined));
  const { objects, kept } = (await thread.run('fetchAndIndex', job)) as PackIndex<SpoolFile>;
  return { objects, kept: kept.map(([oid, file]) => [oid, { ...file, head: Buffer.alloc(0), discard: () => rm(file.path, { force: true }) }]) };
}

/** Writes and sends a push's pack in the thread (see pushJob); throws as pushPack does. */
export async function pushInThread(job: PushJob): Promise<void> {
  thread ??= new PackThread(() => (thread = undefined));
  await thread.run('pushJob', job);
}
