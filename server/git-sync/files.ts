// The space's files in an export: their bytes stay in the file store. The format writer lays them out
// from placeholders, each file's Git id is hashed from the store's stream, and the push streams from the
// store the bytes of those the branch does not hold (or the pack thread reads the store's files, where it
// keeps them in a folder): no file is ever held whole, whatever its size.
import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { blobFilePath, openBlob } from '../blobs/blobs.js';
import type { Db } from '../db/client.js';
import { blobs } from '../db/schema/index.js';

/** A file's bytes in the file store. */
export interface SpaceBlob {
  sha256: string;
  size: number;
  /** Their Git id, when an import recorded it (recordGitIds). */
  gitOid?: string | null;
}

export interface AssetsToWrite {
  /** Repository path → Git id of the file written there. */
  oids: Map<string, string>;
  /** Git id → the file's size and its bytes, streamed from the file store (for the push), or the file holding them (blobFilePath). */
  sources: Map<string, AssetSource>;
}

export interface AssetSource {
  size: number;
  bytes: () => AsyncIterable<Uint8Array>;
  /** The file on this machine holding the bytes (the folder file store), which another thread may read. */
  file?: string;
}

const PLACEHOLDER = new Uint8Array(0);

/** What the format writer takes for the files' bytes: a placeholder each (nextTree puts the Git ids in). */
export function placeholdersOf(blobs: Map<string, SpaceBlob>): Map<string, Uint8Array> {
  return new Map([...blobs.keys()].map((id) => [id, PLACEHOLDER]));
}

// The same bytes have the same Git id: a sha256 already hashed in this process is not read again (bounded).
const known = new Map<string, string>();
const KNOWN_MAX = 20_000;

function remember(sha256: string, oid: string): void {
  if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value!);
  known.set(sha256, oid);
}

/** A blob's Git id: recorded at its import, or hashed in this process before, else hashed from its bytes. */
async function gitIdOf(db: Db, blob: SpaceBlob): Promise<string> {
  const hit = blob.gitOid ?? known.get(blob.sha256);
  if (hit) return hit;
  const hash = createHash('sha1').update(`blob ${blob.size}\0`);
  for await (const chunk of await openBlob(db, blob.sha256)) hash.update(chunk as Buffer);
  const oid = hash.digest('hex');
  remember(blob.sha256, oid);
  return oid;
}

/**
 * Records on their blobs the Git ids a Git Sync read saw (sha256 → the Git id of the same bytes, from the
 * repository's tree): an export then names those files without reading 500 MB of assets back to hash them
 * (2.5 s of a 500 MB export, bench/git-sync.ts). A blob keeps the first id recorded: the same bytes have one.
 */
export async function recordGitIds(db: Db, ids: Map<string, string>): Promise<void> {
  for (const [sha256, oid] of ids) {
    await db.update(blobs).set({ gitOid: oid }).where(and(eq(blobs.sha256, sha256), isNull(blobs.gitOid)));
    remember(sha256, oid);
  }
}

/** The Git ids of the files written at `paths` (file id → path), and where their bytes are. */
export async function assetsToWrite(db: Db, paths: Map<string, string>, blobs: Map<string, SpaceBlob>): Promise<AssetsToWrite> {
  const out: AssetsToWrite = { oids: new Map(), sources: new Map() };
  for (const [id, blob] of blobs) {
    const path = paths.get(id);
    if (path === undefined) continue;
    const oid = await gitIdOf(db, blob);
    out.oids.set(path, oid);
    const file = await blobFilePath(db, blob.sha256);
    out.sources.set(oid, {
      size: blob.size,
      ...(file && { file }),
      bytes: async function* () {
        yield* (await openBlob(db, blob.sha256)) as AsyncIterable<Uint8Array>;
      },
    });
  }
  return out;
}
