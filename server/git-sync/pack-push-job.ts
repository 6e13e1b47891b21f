// A push's pack written and sent as one job: what pack-thread.ts runs in a thread of its own when every
// large object's bytes are a file on this machine (the folder file store), read here as the pack takes
// them. The small objects (an export's pages, trees and commit) come with the job.
import { createReadStream } from 'node:fs';
import type { OutboundLimits } from '../http/outbound.js';
import type { FetchTarget } from './pack-fetch.js';
import { packStream, pushPack, type PackObject } from './pack-push.js';
import type { ObjectType } from './pack-reader.js';

/** An object of the push: its bytes, or the file holding them. */
export type PushObject = { type: ObjectType; size: number } & ({ bytes: Uint8Array } | { path: string });

export interface PushJob {
  target: FetchTarget;
  ref: string;
  /** The branch's head (undefined: a new branch). */
  old: string | undefined;
  commit: string;
  objects: PushObject[];
  limits: OutboundLimits;
}

/** The pack's object for `object`: its bytes, or its file read in 256 KiB chunks (createReadStream's 64 KiB made four times the Buffers). */
export function packObjectOf(object: PushObject): PackObject {
  if ('bytes' in object) {
    const { bytes } = object;
    return { type: object.type, size: object.size, bytes: async function* () { yield bytes; } };
  }
  const { path } = object;
  return { type: object.type, size: object.size, bytes: () => createReadStream(path, { highWaterMark: 256 * 1024 }) };
}

export async function pushJob(job: PushJob): Promise<void> {
  await pushPack(job.target, job.ref, job.old, job.commit, packStream(job.objects.map(packObjectOf)), job.limits);
}
