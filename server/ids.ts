// Ids: `<prefix>_<ULID>`. A ULID starts with its creation time (ms), so ids sort by creation and lists
// can page on them; the monotonic factory keeps ids created in the same millisecond in creation order
// within this process (across processes, same-millisecond ids are ordered at random).
import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

// ulid's own generator asks the system for one random byte per character (16 calls per id): the write-path
// profile (bench/write-path.ts) put 4 % of the server's time there. The same cryptographic bytes, drawn
// from a pool refilled 1 KiB at a time, and used as ulid's do (a byte / 256 picks one of 32 characters).
const pool = Buffer.alloc(1024);
let used = pool.length;
function randomFraction(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++] / 256;
}

const nextUlid = monotonicFactory(randomFraction);

/** A new id, e.g. `spc_01JD3Z8X0Q5M9H2V7K4T1R6B8N`; `now` is the creation time (the server's clock). */
export function newId(prefix: string, now = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
