// Reading and writing revisions. A space created before it had content points at a revision id with no
// row yet: reading it gives the empty revision, and the first write makes it a parent like any other.
//
// A revision's row holds its pages' metadata, each page naming its Document by hash; the Documents are in
// content_documents (content-documents.ts; docs/content.md, "How revisions are stored"). Rows written
// before that hold each page's Document inline (or a legacy page's Markdown): they are read as they are,
// and their pages are stored by hash at the next write that carries them (lazy, on write; no migration of
// old rows). A revision's content never changes once written, so its parsed form is cached here by id;
// its `git` column is mutable and is read from the row every time.
import { eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { contentRevisions } from '../db/schema/index.js';
import { runSql, sqlText } from '../db/sql-text.js';
import { newId } from '../ids.js';
import { hydratePages, storablePages } from './content-documents.js';
import { loadChunks, registerChunks, storableChunks, type Chunk } from './page-chunks.js';
import { copyPageList } from './page-index.js';
import { emptyContent, type RevisionContent } from './revision-content.js';
import { shared } from './shared-values.js';

/**
 * Git metadata of a revision, written by Git Sync (server/git-sync/): the commit it was imported from or
 * exported to, and where each of its pages and files is in that commit (by page or file id). Mutable
 * metadata, unlike the content: an export sets it on the revision it pushed.
 */
export interface RevisionGit {
  commit?: { oid: string; message: string; createdByGitBook: boolean; url?: string; ref?: string };
  blobs: Record<string, { oid: string; path: string }>;
}

export interface StoredRevision {
  id: string;
  parents: string[];
  type: 'edits' | 'merge' | 'rollback' | 'update' | 'computed';
  createdAt: Date;
  content: RevisionContent;
  git?: RevisionGit;
  /** The space the row belongs to; absent for the empty revision of a space (a space nobody has written to has no row). */
  spaceId?: string;
}

/** What a row says besides `git`: immutable, so cached by revision id. */
interface Immutable {
  spaceId: string;
  parents: string[];
  type: StoredRevision['type'];
  createdAt: Date;
  content: RevisionContent;
  /** The chunks its page list is stored in (page-chunks.ts); absent for rows that hold their pages inline. */
  chunks?: Chunk[];
}

/** A row's `content` as stored: the page list in chunks, or (rows written before) inline. */
interface StoredContent extends Omit<RevisionContent, 'pages'> {
  pageChunks?: string[];
  pages?: RevisionContent['pages'];
}

/** Parsed revisions by id, bounded by the size of their JSON text. Shared: callers get copies (`ownCopy`). */
const revisions = new LRUCache<string, Immutable>({ maxSize: 64 * 1024 * 1024 });

function remember(id: string, value: Immutable): Immutable {
  shared(value);
  // A rough bound: the pages (shared with other revisions and the chunk cache) and the other records.
  const size = value.content.pages.length * 512 + (value.content.files.length + value.content.reusableContents.length) * 256 + 1024;
  revisions.set(id, value, { size });
  return value;
}

/**
 * The cached revision `id`. Its id came from a committed row (a space's, a change request's, a request
 * naming a revision), so the chunks it names are in the database: they are registered as stored, which
 * lets the next write name them by hash (page-chunks.ts).
 */
function cachedRevision(id: string): Immutable | undefined {
  const cached = revisions.get(id);
  if (cached?.chunks) registerChunks(cached.chunks);
  return cached;
}

/** `content` with new arrays and records except its pages, which stay shared (see `loadContents`). */
function sharedPages(content: RevisionContent): RevisionContent {
  return { ...ownCopy({ ...content, pages: [] }), pages: copyPageList(content.pages) };
}

/** Whether this process holds the content of the revision `id` (a read of it then needs only its `git`). */
export function isRevisionCached(id: string): boolean {
  return revisions.has(id);
}

/** The content of the revision `id` when this process holds it: the cache's own, which nothing may change. */
export function heldContent(id: string): RevisionContent | undefined {
  return revisions.get(id)?.content;
}

/**
 * The revision `id` as a statement read it beside something else (revision-attached.ts): whether it has a
 * row, the row's immutable part as text when the process did not hold it, and its `git` when asked for.
 */
export interface PrefetchedRevision {
  id: string;
  exists: boolean;
  row?: Record<string, unknown>;
  withGit: boolean;
  git?: unknown;
}

/**
 * Drops the cached revision `id`: only for fixtures that write a revision's row in place (tests planting what
 * no API writes); the application never changes a revision's content once written.
 */
export function forgetRevision(id: string): void {
  revisions.delete(id);
}

/**
 * A copy of cached content its caller may change (a batch applies its changes in place): new arrays and
 * records, the pages, files and reusable contents shallow-copied. Documents stay shared: nothing changes a
 * Document in place (an edit makes a new one).
 */
function ownCopy(content: RevisionContent): RevisionContent {
  return {
    pages: content.pages.map((p) => ({ ...p })),
    files: content.files.map((f) => ({ ...f })),
    variables: { ...content.variables },
    reusableContents: content.reusableContents.map((r) => ({ ...r })),
    ...(content.tagsFile !== undefined && { tagsFile: content.tagsFile }),
    ...(content.redirects !== undefined && { redirects: { ...content.redirects } }),
  };
}

/** The immutable part of a row read as text (`parents`, `content`), parsed, its page chunks loaded, and cached. */
async function rememberRow(db: Db, id: string, row: Record<string, unknown>): Promise<Immutable> {
  const stored = JSON.parse(row.content as string) as StoredContent;
  const { pageChunks, pages, ...rest } = stored;
  const chunks = pageChunks ? await loadChunks(db, pageChunks) : undefined;
  return remember(id, {
    spaceId: row.space_id as string,
    parents: JSON.parse(row.parents as string) as string[],
    type: row.type as StoredRevision['type'],
    createdAt: contentRevisions.createdAt.mapFromDriverValue(row.created_at as string) as Date,
    content: { ...rest, pages: chunks ? chunks.flatMap((c) => c.pages) : (pages ?? []) },
    ...(chunks && { chunks }),
  });
}

/**
 * The contents of the revisions `ids`, without their Documents where they are stored apart (pages with
 * `documentHash`); one query for those not cached, none when all are. A revision with no row is the empty
 * one. Their arrays, files, variables and reusable contents are the caller's, but their page objects are the
 * cache's, shared with the other revisions that did not change them: a caller replaces a page it changes
 * (content-documents.ts `ownPages` gives it the page's own copy, with its Document) and never changes one
 * in place. That sharing is what makes a merge of a large space cheap: its unchanged pages are the same
 * objects on the three sides and compare at once (merge.ts).
 */
export async function loadContents(db: Db, ids: string[]): Promise<Map<string, RevisionContent>> {
  const missing = [...new Set(ids)].filter((id) => !cachedRevision(id));
  if (missing.length > 0) {
    const rows = await runSql(
      db,
      sqlText`SELECT id, space_id, parents::text AS parents, type, created_at, content::text AS content FROM content_revisions WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(missing)}::jsonb))`,
    );
    for (const row of rows) await rememberRow(db, row.id as string, row);
  }
  return new Map(ids.map((id) => {
    const cached = revisions.get(id);
    return [id, cached ? sharedPages(cached.content) : emptyContent()];
  }));
}

export interface LoadOptions {
  /**
   * `false`: the pages come without their Documents where they are stored apart (`documentHash` set),
   * and are the cache's own objects, shared with every reader of the revision (not copied: a read of one
   * page of a large space would otherwise copy all of its pages); nothing may change them in place. The
   * caller gives the pages it reads their Documents with content-documents.ts `hydratePage` or
   * `hydrateSubtree`, which replace them in `content.pages` by copies. Default: all, on the caller's copies.
   */
  documents?: boolean;
  /** `false`: without `git` (a document read does not show it), so a cached revision is read with no query. */
  git?: boolean;
}

/**
 * The revision `id`; the empty revision (created at `fallbackCreatedAt`) when it has no row (the first
 * revision of a space nobody has written to, which its first write creates).
 * `prefetched`: what a statement already read of it, so that none is sent here.
 */
export async function loadRevision(db: Db, id: string, fallbackCreatedAt: Date, options: LoadOptions = {}, prefetched?: PrefetchedRevision): Promise<StoredRevision> {
  const usable = prefetched?.id === id && (prefetched.withGit || options.git === false) ? prefetched : undefined;
  let immutable = usable?.row ? await rememberRow(db, id, usable.row) : cachedRevision(id);
  let git: unknown;
  if (usable && (immutable || !usable.exists)) {
    git = usable.git;
  } else if (immutable) {
    // Mutable (an export sets it), so never served from the cache.
    if (options.git !== false) {
      const [row] = await db.select({ git: contentRevisions.git }).from(contentRevisions).where(eq(contentRevisions.id, id));
      git = row?.git;
    }
  } else {
    const [row] = await runSql(
      db,
      sqlText`SELECT space_id, parents::text AS parents, type, created_at, git::text AS git, content::text AS content FROM content_revisions WHERE id = ${id}::text`,
    );
    if (row) {
      immutable = await rememberRow(db, id, row);
      git = typeof row.git === 'string' ? JSON.parse(row.git) : row.git;
    }
  }
  if (!immutable) return { id, parents: [], type: 'edits', createdAt: fallbackCreatedAt, content: emptyContent() };
  const content = options.documents === false ? sharedPages(immutable.content) : ownCopy(immutable.content);
  if (options.documents !== false) await hydratePages(db, content.pages);
  return {
    id,
    spaceId: immutable.spaceId,
    parents: [...immutable.parents],
    type: immutable.type,
    createdAt: immutable.createdAt,
    content,
    ...(git ? { git: git as RevisionGit } : {}),
  };
}

/**
 * The revision's content as its row stores it (pages in chunks, Documents by hash), the same content as
 * pages for the cache, and the Documents and chunks the database lacks as one `{hash: value}` JSON object.
 */
function storable(revision: { content: RevisionContent }) {
  const { pages, newDocuments } = storablePages(revision.content.pages);
  const { chunks, newChunks } = storableChunks(pages);
  const { pages: _pages, ...rest } = revision.content;
  void _pages;
  const row: StoredContent = { ...rest, pageChunks: chunks.map((c) => c.hash) };
  return { row, content: { ...revision.content, pages }, chunks, newValues: `{${[...newDocuments, ...newChunks].join(',')}}` };
}

/**
 * The statements that write a new revision of the space, as common table expressions `d` (the Documents it
 * adds, ON CONFLICT DO NOTHING: content-addressed) and `r` (the row), for a statement that moves something
 * to it in the same round trip (a change request's write, a merge: `WITH ${ctes}, ...`); `id` is the new
 * revision's.
 */
export function insertRevisionSql(spaceId: string, revision: { parents: string[]; type: StoredRevision['type']; content: RevisionContent }, now: Date) {
  const id = newId('rev', now.getTime());
  const { row, content, chunks, newValues } = storable(revision);
  const text = JSON.stringify(row);
  // Cached as written (the next read of this revision, often the next request, skips the parse), its pages
  // the very objects written, so those it did not change stay the objects its parent's cache holds (see
  // `loadContents`); the writer must not change them after this. An id is never reused, so an entry for a
  // write that rolled back is never asked for.
  remember(id, { spaceId, parents: [...revision.parents], type: revision.type, createdAt: now, content: sharedPages(content), chunks });
  return {
    id,
    ctes: sqlText`d AS (INSERT INTO content_documents (hash, document) SELECT key, value FROM jsonb_each(${newValues}::jsonb) ON CONFLICT (hash) DO NOTHING),
    r AS (INSERT INTO content_revisions (id, space_id, parents, type, content, created_at)
      VALUES (${id}::text, ${spaceId}::text, ${JSON.stringify(revision.parents)}::jsonb, ${revision.type}::text, ${text}::jsonb, ${now}::timestamptz))`,
  };
}

/** Writes a new immutable revision of the space (one statement) and returns it. */
export async function insertRevision(
  tx: Ctx,
  spaceId: string,
  revision: { parents: string[]; type: StoredRevision['type']; content: RevisionContent },
): Promise<StoredRevision> {
  const now = tx.now();
  const { id, ctes } = insertRevisionSql(spaceId, revision, now);
  await runSql(tx.db, sqlText`WITH ${ctes} SELECT 1`);
  return { id, createdAt: now, spaceId, ...revision };
}
