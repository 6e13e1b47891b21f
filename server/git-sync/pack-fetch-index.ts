// A commit's pack fetched to a file and indexed, as one job: what pack-thread.ts runs in a thread of its
// own. Each large blob up to `spool.upTo` bytes is spooled for the file store as the index pass inflates
// and hashes it, so an import stores it from there without inflating it again.
import { rm } from 'node:fs/promises';
import { spool } from '../blobs/spool.js';
import type { OutboundLimits } from '../http/outbound.js';
import { fetchPack, type FetchTarget } from './pack-fetch.js';
import { PackReader, type PackIndex } from './pack-reader.js';

export interface FetchAndIndex {
  target: FetchTarget;
  commit: string;
  packPath: string;
  limits: OutboundLimits;
  /** The largest object a delta may make (PackReaderOptions.maxObjectBytes). */
  maxObjectBytes: number;
  /** Where to spool the large blobs of at most `upTo` bytes (the file store's spool folder). */
  spool?: { dir: string; upTo: number };
}

/** A blob spooled by the index pass: its file, now the caller's to store or delete. */
export interface SpoolFile {
  path: string;
  size: number;
  sha256: string;
}

export async function fetchAndIndex(job: FetchAndIndex): Promise<PackIndex<SpoolFile>> {
  await fetchPack(job.target, job.commit, job.packPath, job.limits);
  const to = job.spool;
  const keep = to && {
    wants: (size: number) => size <= to.upTo,
    // No head kept: the spools wait for the import to store them, and headOf reads a head from the file.
    take: async (bytes: AsyncIterable<Buffer>): Promise<SpoolFile> => {
      const { path, size, sha256 } = await spool(bytes, to.dir, to.upTo, 0);
      return { path, size, sha256 };
    },
    drop: (file: SpoolFile) => rm(file.path, { force: true }),
  };
  const reader = await PackReader.open(job.packPath, { maxObjectBytes: job.maxObjectBytes, keep });
  return reader.handOver();
}
