// Ids: `<prefix>_<ULID>`. A ULID starts with its creation time (ms), so ids sort by creation and lists
// can page on them; the monotonic factory keeps ids created in the same millisecond in creation order
// within this process (across processes, same-millisecond ids are ordered at random).
import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/** A new id, e.g. `spc_01JD3Z8X0Q5M9H2V7K4T1R6B8N`; `now` is the creation time (the server's clock). */
export function newId(prefix: string, now = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
