// A revision's page list stored in chunks, content-addressed like Documents (content_documents): the row
// names its chunks by hash (`pageChunks`), so a write that changes one page of a 5,000-page space writes
// one chunk of about 64 pages, not the whole list. Chunk boundaries are set by the pages' ids (a boundary
// after a page whose id hashes to 0 mod 64), not by position, so inserting or deleting a page changes only
// the chunk it is in.
import { cacheWritten, hashDocumentJson, isCached, loadStored } from './content-documents.js';
import type { StoredPage } from './revision-content.js';

const AVERAGE_CHUNK = 64;

/** FNV-1a of the id: cheap, and the same in every process. */
function endsChunk(id: string): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % AVERAGE_CHUNK === 0;
}

export interface Chunk {
  hash: string;
  pages: StoredPage[];
}

/**
 * The chunks known to be in the database, by their first page object: a chunk of the same page objects
 * (a write that did not touch them) is written by its hash alone. Only chunks named by a revision read from
 * the database are registered (`registerChunks`), so a chunk of a write that rolled back is never assumed
 * stored.
 */
const known = new WeakMap<StoredPage, Chunk>();

export function registerChunks(chunks: readonly Chunk[]): void {
  for (const chunk of chunks) if (chunk.pages.length > 0) known.set(chunk.pages[0], chunk);
}

/**
 * The pages cut at chunk boundaries. Where a chunk known to be stored starts, with the same page objects, it
 * is taken whole without hashing its ids: it was cut by this same rule, so it holds no boundary but its last
 * page (or it ended its list, and then it is taken only at the end of this one). A write that changed one page
 * of a large space so hashes the ids of one chunk, and compares references for the rest.
 */
function split(pages: StoredPage[]): (StoredPage[] | Chunk)[] {
  const chunks: (StoredPage[] | Chunk)[] = [];
  let i = 0;
  while (i < pages.length) {
    const was = known.get(pages[i]);
    if (was && startsWith(pages, i, was.pages)) {
      const end = i + was.pages.length;
      if (end === pages.length || endsChunk(pages[end - 1].id)) {
        chunks.push(was);
        i = end;
        continue;
      }
    }
    const start = i;
    while (i < pages.length && !endsChunk(pages[i++].id));
    chunks.push(pages.slice(start, i));
  }
  return chunks;
}

/** Whether `pages` holds the very objects `chunk` at `from`. */
function startsWith(pages: StoredPage[], from: number, chunk: StoredPage[]): boolean {
  if (from + chunk.length > pages.length) return false;
  for (let k = 0; k < chunk.length; k++) if (pages[from + k] !== chunk[k]) return false;
  return true;
}

/**
 * The pages (as a revision stores them: content-documents.ts `storablePages`) in chunks: each with its hash,
 * and the chunks not known to be stored as `"hash":[pages]` JSON entries for content_documents.
 */
export function storableChunks(pages: StoredPage[]): { chunks: Chunk[]; newChunks: string[] } {
  const newChunks: string[] = [];
  const chunks = split(pages).map((piece): Chunk => {
    if (!Array.isArray(piece)) return piece;
    const json = JSON.stringify(piece);
    const hash = hashDocumentJson(json);
    newChunks.push(`${JSON.stringify(hash)}:${json}`);
    // Cached so the next read of this revision in this process needs no query (not registered: see `known`):
    // its page objects are the revision's, shared once it is written (revisions.store.ts `insertRevisionSql`).
    if (!isCached(hash)) cacheWritten(hash, piece, json.length);
    return { hash, pages: piece };
  });
  return { chunks, newChunks };
}

/** The chunks `hashes` of a revision read from the database, registered as stored (one query for those not cached). */
export async function loadChunks(db: Parameters<typeof loadStored>[0], hashes: string[]): Promise<Chunk[]> {
  const found = await loadStored(db, hashes);
  const chunks = hashes.map((hash) => {
    const pages = found.get(hash) as StoredPage[] | undefined;
    if (!pages) throw new Error(`content_documents has no page chunk ${hash}`);
    return { hash, pages };
  });
  registerChunks(chunks);
  return chunks;
}
