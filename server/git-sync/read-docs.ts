// The files under the docs root of a fetched commit, as the format reader takes them, without holding the
// repository in memory: the text files (Markdown, YAML) read from the pack one at a time, and each asset
// (a file directly under `.gitbook/assets/`) streamed from the pack to the file store as it is read (in an
// import, taken from the spool the pack's index pass wrote it to), so only its size, image dimensions and
// blob name stay. Other files are counted, not read. The assets are
// stored before the import's transaction (as an upload's are): bytes an import does not keep are
// unreferenced blobs the collector deletes after their grace period.
import { imageSize } from 'image-size';
import { BlobTooLarge, putBlobStream, putSpooledBlob } from '../blobs/blobs.js';
import type { Db } from '../db/client.js';
import { assetTooLarge, CONFIG_FILE, formatLimits, joinPath, readConfig, RepositoryFormatError, type RepositoryFiles } from './format/index.js';
import { ASSETS_DIR } from './format/layout.js';
import { recordGitIds } from './files.js';
import type { TreeFile, WorkRepository } from './work-repository.js';

/** An asset read from the repository: its size and dimensions, and (stored) the blob holding its bytes. */
export interface RepositoryAsset {
  size: number;
  dimensions?: { width: number; height: number };
  /** The file store's name of its bytes; absent for a file not stored (not an asset, or over the cap). */
  sha256?: string;
  /** Its Git id in the repository (of a stored asset: recorded on its blob, recordGitIds). */
  oid?: string;
}

export interface DocsRead {
  /** Path → bytes of the text files; an empty placeholder for every other file (its size in `assets`). */
  files: RepositoryFiles;
  assets: Map<string, RepositoryAsset>;
}

const TEXT = /\.(md|markdown|ya?ml)$/i;
const PLACEHOLDER = new Uint8Array(0);

function dimensionsOf(head: Uint8Array): RepositoryAsset['dimensions'] {
  try {
    const { width, height } = imageSize(head);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/** At most `max` bytes of a file: a larger one is cut, which the reader refuses by its length. */
async function readAtMost(repo: WorkRepository, oid: string, max: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of repo.openFile(oid)) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) break;
  }
  return Buffer.concat(chunks).subarray(0, max);
}

/**
 * Reads the files under `projectDirectory` of `tree`, storing the assets; throws over the repository limits.
 * An asset over `maxAssetBytes` (GIT_SYNC_MAX_ASSET_BYTES) is not stored: the format reader refuses it by name.
 */
export async function readDocs(db: Db, repo: WorkRepository, tree: Map<string, TreeFile>, projectDirectory: string, now: Date, maxAssetBytes: number): Promise<DocsRead> {
  const scoped = repo.checkedFiles(tree, projectDirectory);
  const files: RepositoryFiles = new Map();
  const assets = new Map<string, RepositoryAsset>();
  // `.gitbook.yaml` says where the docs, and so the assets, are.
  const configPath = joinPath(projectDirectory, CONFIG_FILE);
  const config = tree.get(configPath);
  if (config) files.set(configPath, await readAtMost(repo, config.oid, formatLimits.maxConfigBytes + 1));
  const assetsDir = joinPath(readConfig(files, projectDirectory).docsRoot, ASSETS_DIR);
  const isAsset = (path: string) => path.startsWith(`${assetsDir}/`) && !path.slice(assetsDir.length + 1).includes('/');
  // A text file larger than the format takes is read one byte past the cap: the reader refuses it by name.
  for (const [path, { oid }] of scoped) if (TEXT.test(path) && !isAsset(path) && !files.has(path)) files.set(path, await readAtMost(repo, oid, formatLimits.maxMarkdownBytes + 1));
  for (const [path, { oid }] of scoped) {
    if (files.has(path)) continue;
    files.set(path, PLACEHOLDER);
    const size = repo.sizeOf(oid);
    if (!isAsset(path) || size > maxAssetBytes) {
      assets.set(path, { size });
      continue;
    }
    let stored;
    try {
      // Git Sync's own cap, not the store's upload cap (FILES_MAX_BYTES): a repository's assets are its own.
      // Spooled as the pack was indexed when the import asked for it (work-repository.ts fetch), else read from the pack now.
      const spooled = repo.takeSpooled(oid);
      stored = spooled ? await putSpooledBlob(db, spooled, now, maxAssetBytes) : await putBlobStream(db, repo.openFile(oid), now, maxAssetBytes);
    } catch (err) {
      if (err instanceof BlobTooLarge) throw new RepositoryFormatError(path, assetTooLarge(err.maxBytes));
      throw err;
    }
    const dimensions = dimensionsOf(stored.head);
    assets.set(path, { size: stored.size, sha256: stored.sha256, oid, ...(dimensions && { dimensions }) });
  }
  await recordGitIds(db, new Map([...assets.values()].flatMap((a) => (a.sha256 && a.oid ? [[a.sha256, a.oid]] : []))));
  return { files, assets };
}
