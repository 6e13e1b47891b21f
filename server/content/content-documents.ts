// Page Documents stored apart from revisions, by the SHA-256 of their JSON (table content_documents): a
// revision's pages name their Document by `documentHash`, so writing a revision writes only the Documents
// it changed, and reading one page reads one Document. Documents are immutable once written, so they are
// cached in this process by hash; the cache is safe with several processes because nothing is ever
// rewritten under a hash, except by the data migration into GitBook's Document JSON
// (server/data-migrations/gitbook-documents.ts), which writes what the readers' upgrade already makes of it.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.js';
import { runSql, sqlText } from '../db/sql-text.js';
import type { Document } from './markdown-document.js';
import { shared } from './shared-values.js';
import { positionOf } from './page-index.js';
import { subtreeIds, type RevisionContent, type StoredPage } from './revision-content.js';

/**
 * Parsed values of content_documents by hash (Documents, and chunks of revisions' page lists: page-chunks.ts),
 * bounded by the size of their JSON text. Shared: nothing may change them.
 */
const stored = new LRUCache<string, object>({ maxSize: 128 * 1024 * 1024 });

/**
 * The hash each Document known to be in the database (read from it, or named by a revision read from it)
 * is stored under: a page whose Document is one of these is written with that hash and without writing the
 * Document. Keyed by the object, so a Document replaced by an edit (a new object) is hashed again.
 */
const storedHash = new WeakMap<Document, string>();


/**
 * The Documents cached as a write made them (`cacheWritten`), not parsed from a row. They are shared like the
 * others, but a process may write to several databases (two apps mounted on two; the tests; the scale bench's
 * seed, which writes the same Document objects to two): one read from a database names a Document that
 * database holds, not that every database it is written to does. So a page with such a Document is written
 * with it, whatever `storedHash` says (content-addressed: the database keeps the one it has).
 */
const madeHere = new WeakSet<object>();

/** Whether `document` is one read from the database (shared: nothing may change it). */
export const isStoredDocument = (document: Document): boolean => storedHash.has(document);

export function hashDocumentJson(json: string): string {
  return createHash('sha256').update(json).digest('base64url');
}

/** Caches the value stored under `hash`, parsed from `json` (a row's). */
export function cacheStored(hash: string, json: string): object {
  return cache(hash, JSON.parse(json) as object, json.length);
}

/**
 * Caches `value`, whose JSON (`jsonLength` characters) a write is about to store under `hash`, as the very
 * object: from here on it is shared, and the writer must not change it (it is frozen under the tests).
 * Parsing the JSON back for a private copy cost a one-page merge about a tenth of its time.
 */
export function cacheWritten(hash: string, value: object, jsonLength: number): object {
  madeHere.add(value);
  return cache(hash, value, jsonLength);
}

function cache(hash: string, value: object, jsonLength: number): object {
  shared(value);
  // The bound counts the JSON text (two bytes a character), a stand-in for the parsed tree's size.
  stored.set(hash, value, { size: Math.max(1, jsonLength * 2) });
  return value;
}

export const isCached = (hash: string) => stored.has(hash);

/**
 * SQL: the content_documents rows whose hash the subquery `hashes` answers, as one JSON array of `[hash, JSON
 * text]` pairs (null for none): how a statement that reads something else sends Documents and page chunks along.
 */
export const storedPairsSql = (hashes: string) =>
  `(SELECT json_agg(json_build_array(d.hash, d.document::text)) FROM content_documents d WHERE d.hash IN (${hashes}))`;

/** Caches the pairs a `storedPairsSql` column answered, as a read of them would. */
export function cacheStoredPairs(pairs: [string, string][] | null | undefined): void {
  for (const [hash, json] of pairs ?? []) if (!isCached(hash)) cacheStored(hash, json);
}

/** The values stored under `hashes` (one query for those not cached); a hash with no row is left out. */
export async function loadStored(db: Db, hashes: Iterable<string>): Promise<Map<string, object>> {
  const found = new Map<string, object>();
  const missing: string[] = [];
  for (const hash of new Set(hashes)) {
    const value = stored.get(hash);
    if (value) found.set(hash, value);
    else missing.push(hash);
  }
  if (missing.length > 0) {
    // As text, parsed here: on PGlite the database thread is spared the copy of the object tree.
    const rows = await runSql(db, sqlText`SELECT hash, document::text AS document FROM content_documents WHERE hash IN (SELECT jsonb_array_elements_text(${JSON.stringify(missing)}::jsonb))`);
    for (const row of rows) found.set(row.hash as string, cacheStored(row.hash as string, row.document as string));
  }
  return found;
}

/** The Documents of `hashes`; a hash with no row is left out of the map. */
async function loadDocuments(db: Db, hashes: Iterable<string>): Promise<Map<string, Document>> {
  return (await loadStored(db, hashes)) as Map<string, Document>;
}

/**
 * Gives each of `pages` that names its Document by hash that Document (`document` set, `documentHash`
 * dropped), in place; pages stored with their Document inline, or as legacy Markdown, are left as they are.
 */
export async function hydratePages(db: Db, pages: Iterable<StoredPage>): Promise<void> {
  const wanted = [...pages].filter((p) => p.documentHash !== undefined && !p.document);
  if (wanted.length === 0) return;
  const found = await loadDocuments(db, wanted.map((p) => p.documentHash!));
  for (const page of wanted) {
    const doc = found.get(page.documentHash!);
    if (!doc) throw new Error(`content_documents has no Document ${page.documentHash} for page ${page.id}`);
    // The page's revision was read from the database, so its Documents are there: a later write of this
    // Document can name it by hash (also for one cached at write time, below, by a write that committed).
    storedHash.set(doc, page.documentHash!);
    page.document = doc;
    delete page.documentHash;
  }
}

/**
 * Gives each content its own copy of its pages `ids` (all when undefined), with their Documents, in place of
 * the shared ones (revisions.store.ts `loadContents`): the pages a batch changes, or a merge merges.
 */
export async function ownPages(db: Db, contents: RevisionContent[], ids?: Set<string>): Promise<void> {
  const copies: StoredPage[] = [];
  for (const content of contents) {
    content.pages = content.pages.map((page) => {
      if (ids && !ids.has(page.id)) return page;
      const copy = { ...page };
      copies.push(copy);
      return copy;
    });
  }
  await hydratePages(db, copies);
}

/**
 * Gives the pages `ids` of `content` (every page when undefined) their Documents, each replaced in
 * `content.pages` (the caller's array) by a copy that has it: the pages of a revision read without its
 * Documents are the revision cache's, shared with other readers, so they are never changed in place.
 */
export async function hydrateIn(db: Db, content: RevisionContent, ids?: Set<string>): Promise<void> {
  const at = ids ? [...ids].map((id) => positionOf(content.pages, id)).filter((i) => i !== -1) : content.pages.keys();
  const wanted = new Map<number, StoredPage>();
  for (const i of at) {
    const page = content.pages[i];
    if (page.documentHash !== undefined && !page.document) wanted.set(i, { ...page });
  }
  if (wanted.size === 0) return;
  await hydratePages(db, wanted.values());
  for (const [i, copy] of wanted) content.pages[i] = copy;
}

/** `page` of `content` with its Document, as `content.pages` now holds it (see `hydrateIn`). */
export async function hydratePage(db: Db, content: RevisionContent, page: StoredPage): Promise<StoredPage> {
  await hydrateIn(db, content, new Set([page.id]));
  return content.pages[positionOf(content.pages, page.id)] ?? page;
}

/**
 * `page` with the Documents of it and its subpages (a page read shows its subpages in the same format), as
 * `content.pages` now holds them (see `hydrateIn`).
 */
export async function hydrateSubtree(db: Db, content: RevisionContent, page: StoredPage): Promise<StoredPage> {
  await hydrateIn(db, content, subtreeIds(content, page.id));
  return content.pages[positionOf(content.pages, page.id)] ?? page;
}

/**
 * The pages as a revision stores them: each Document replaced by its hash, and the Documents the database lacks
 * (new or edited ones) as `"hash":Document` JSON entries for content_documents. A page that was never hydrated
 * keeps its `documentHash`; legacy Markdown pages keep their Markdown and keys.
 */
export function storablePages(pages: StoredPage[]): { pages: StoredPage[]; newDocuments: string[] } {
  const fresh: string[] = [];
  const seen = new Set<string>();
  const out = pages.map((page) => {
    if (!page.document) return page;
    const { document, documentHash, ...rest } = page;
    void documentHash;
    let hash = madeHere.has(document) ? undefined : storedHash.get(document);
    if (hash === undefined) {
      const json = JSON.stringify(document);
      hash = hashDocumentJson(json);
      if (!seen.has(hash)) {
        seen.add(hash);
        fresh.push(`${JSON.stringify(hash)}:${json}`);
        // Cached (shared from here on) so the read after this write needs no query; never taken as stored
        // (`madeHere`): this write may roll back, and the next may go to another database.
        if (!stored.has(hash)) cacheWritten(hash, document, json.length);
      }
    }
    return { ...rest, documentHash: hash };
  });
  return { pages: out, newDocuments: fresh };
}
