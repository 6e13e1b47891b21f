// Keeps a space's search index current at commit (docs/decisions.md, "The space search is one statement"):
// the writer that moves a space to a new revision (a merge, a template, an import or export, a translation
// run, a duplicate) indexes, in its own transaction, the pages that revision changed since the one indexed.
// So a space's index is at its current revision whenever that revision is committed, and the space search
// is one statement that never finds it behind.
//
// Only the difference is read and written: the two revisions' page lists come from the revision cache
// without their Documents (a page names its Document by hash, so an unchanged page compares in place), and
// only the changed pages get their Documents, their Markdown and their digest. A merge of one page in a
// space of 10,000 pages indexes one page, in one or two statements. The catch-up of search-index.ts (every
// page digested and compared with what is stored) remains for what this cannot vouch for: a space whose
// index is at no revision this process can read the difference from.
import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { hydratePages } from '../content/content-documents.js';
import { pagesById } from '../content/page-index.js';
import { emptyContent, type RevisionContent, type StoredPage } from '../content/revision-content.js';
import { loadContents } from '../content/revisions.store.js';
import { rawSql, runSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import { ANALYZE_AFTER_PAGES, BATCH_PAGES, catchUpIn, deletePagesSql, indexedPage, insertPagesSql, type IndexedPage } from './search-index.js';

/** Whether two versions of a page have the same content: the same Document (by hash or object) or legacy Markdown. */
const sameContent = (a: StoredPage, b: StoredPage) => a.documentHash === b.documentHash && a.document === b.document && a.markdown === b.markdown;

/**
 * What the index of `before` needs to become that of `after`: the pages of `after` to index anew (new, or
 * whose title, description, content, path or parent titles differ) and the pages of `before` to remove
 * (gone, or indexed anew). A page at the same place in both lists as the very same object (the revision
 * cache shares a page no write changed) is unchanged without a look. A page whose title, slug or parent
 * changed moves the path or the ancestors of every page under it, which are indexed anew too (the pages under
 * a new page, or one that went, were moved there or went too: they changed themselves).
 */
export function indexDelta(before: RevisionContent, after: RevisionContent): { fresh: Map<string, StoredPage>; removed: string[] } {
  // Look-ups by id only where the two lists differ at a place and name different pages there (a look-up
  // builds the list's map of positions, a few milliseconds for 10,000 pages).
  const old = pagesById(before.pages);
  const byId = pagesById(after.pages);
  const fresh = new Map<string, StoredPage>();
  const moved = new Set<string>();
  after.pages.forEach((page, i) => {
    const there = before.pages[i];
    if (there === page) return;
    const was = there?.id === page.id ? there : old.get(page.id);
    if (was === page) return;
    if (!was) fresh.set(page.id, page);
    else if (was.title !== page.title || was.slug !== page.slug || was.parent !== page.parent) {
      moved.add(page.id);
      fresh.set(page.id, page);
    } else if ((was.description ?? '') !== (page.description ?? '') || !sameContent(was, page)) {
      fresh.set(page.id, page);
    }
  });
  if (moved.size > 0) {
    for (const page of after.pages) {
      if (fresh.has(page.id)) continue;
      const seen = new Set([page.id]);
      for (let id = page.parent; id !== null && !seen.has(id); id = byId.get(id)?.parent ?? null) {
        seen.add(id);
        if (moved.has(id)) {
          fresh.set(page.id, page);
          break;
        }
      }
    }
  }
  const removed = before.pages
    .filter((was, i) => after.pages[i] !== was && (fresh.has(was.id) || (after.pages[i]?.id !== was.id && !byId.get(was.id))))
    .map((p) => p.id);
  return { fresh, removed };
}

/**
 * The write of the index state that vouches for the difference: the state moves from `from` to `to` only
 * when it is at `from` (a space never indexed has no state row, and an index of nothing when `from` holds
 * no page). Every write of the difference waits for it and happens only when it matched (`moved`).
 */
function stateMoveSql(spaceId: string, from: string, to: string, pages: number, fromEmpty: boolean): SqlFragment {
  return fromEmpty
    ? sqlText`moved AS (
        INSERT INTO search_index_state (space_id, revision_id, pages) VALUES (${spaceId}::text, ${to}::text, ${String(pages)}::integer)
        ON CONFLICT (space_id) DO UPDATE SET revision_id = excluded.revision_id, pages = excluded.pages WHERE search_index_state.revision_id = ${from}::text
        RETURNING 1)`
    : sqlText`moved AS (
        UPDATE search_index_state SET revision_id = ${to}::text, pages = ${String(pages)}::integer
        WHERE space_id = ${spaceId}::text AND revision_id = ${from}::text
        RETURNING 1)`;
}

/**
 * Indexes the difference from `from` to `to`; false when the index was not at `from` (nothing written).
 * Most writes take one statement (the state moved and the new rows written, or the rows removed), a page
 * changed in place two (its old row removed, then its new one written).
 */
async function indexDifference(tx: Pick<Ctx, 'db'>, spaceId: string, from: string, before: RevisionContent, to: string, after: RevisionContent): Promise<boolean> {
  const { fresh, removed } = indexDelta(before, after);
  const state = stateMoveSql(spaceId, from, to, after.pages.length, before.pages.length === 0);
  const moved = async (statement: SqlFragment) => Number((await runSql(tx.db, statement))[0]?.moved ?? 0) > 0;
  const insert = (pages: IndexedPage[], gate?: string) => sqlText`WITH ${gate ? sqlText`${state}, ` : sqlText``}${insertPagesSql(spaceId, pages, gate)} SELECT count(*) AS moved FROM ${rawSql(gate ?? 'inserted')}`;
  // The changed pages with their Documents (copies: the cache's pages are shared), their paths read in `after`.
  const copies = [...fresh.values()].map((page) => ({ ...page }));
  await hydratePages(tx.db, copies);
  const byId = pagesById(after.pages);
  const pages = copies.map((page) => indexedPage(byId, page));
  if (removed.length > BATCH_PAGES || pages.length > BATCH_PAGES) {
    // A large change (an import, a first write of many pages): the state first, then batches of rows.
    if (!(await moved(sqlText`WITH ${state} SELECT count(*) AS moved FROM moved`))) return false;
    for (let i = 0; i < removed.length; i += BATCH_PAGES) await runSql(tx.db, sqlText`WITH ${deletePagesSql(spaceId, removed.slice(i, i + BATCH_PAGES))} SELECT 1`);
    for (let i = 0; i < pages.length; i += BATCH_PAGES) await runSql(tx.db, insert(pages.slice(i, i + BATCH_PAGES)));
  } else if (removed.length > 0) {
    // Removing first: a page indexed anew has its old row removed before its new one is written.
    if (!(await moved(sqlText`WITH ${state}, ${deletePagesSql(spaceId, removed, 'moved')} SELECT count(*) AS moved FROM moved`))) return false;
    if (pages.length > 0) await runSql(tx.db, insert(pages));
  } else if (!(await moved(pages.length > 0 ? insert(pages, 'moved') : sqlText`WITH ${state} SELECT count(*) AS moved FROM moved`))) {
    return false;
  }
  // As after a large catch-up (search-index.ts): the planner needs the new statistics.
  // Not through runSql: ANALYZE cannot be a prepared statement.
  if (pages.length >= ANALYZE_AFTER_PAGES) await tx.db.execute(sql`ANALYZE search_pages, search_sections`);
  return true;
}

/**
 * Brings the space's index to `revisionId`, the revision the caller's transaction just moved it to, from
 * `previousRevisionId` (the revision it was at, which the index is at too unless it was behind already).
 * When the index was elsewhere, its state row is read (and locked) and the difference is taken from the
 * revision it names; a space never indexed is indexed whole.
 */
export async function indexAtCommit(tx: Pick<Ctx, 'db'>, spaceId: string, revisionId: string, previousRevisionId?: string): Promise<void> {
  if (previousRevisionId !== undefined && previousRevisionId !== revisionId) {
    const contents = await loadContents(tx.db, [previousRevisionId, revisionId]);
    if (await indexDifference(tx, spaceId, previousRevisionId, contents.get(previousRevisionId)!, revisionId, contents.get(revisionId)!)) return;
  }
  const [state] = await runSql(tx.db, sqlText`SELECT revision_id FROM search_index_state WHERE space_id = ${spaceId}::text FOR UPDATE`);
  const indexed = state?.revision_id as string | undefined;
  if (indexed === revisionId) return;
  if (indexed === undefined) {
    // Never indexed: no row of it in the index, which is the index of no page.
    const after = (await loadContents(tx.db, [revisionId])).get(revisionId)!;
    if (await indexDifference(tx, spaceId, '', emptyContent(), revisionId, after)) return;
  } else if (indexed !== '') {
    const contents = await loadContents(tx.db, [indexed, revisionId]);
    if (await indexDifference(tx, spaceId, indexed, contents.get(indexed)!, revisionId, contents.get(revisionId)!)) return;
  }
  await catchUpIn(tx, spaceId);
}

/**
 * Indexes a duplicate at `revisionId`, whose pages are those of `copiedFrom` (same ids, paths and content):
 * the original's index rows copied in one statement when its index is at the revision copied (nothing to
 * parse or digest), else as any write (indexAtCommit).
 */
export async function copyIndexAtCommit(tx: Pick<Ctx, 'db'>, spaceId: string, revisionId: string, copiedFrom: { spaceId: string; revisionId: string }): Promise<void> {
  const after = (await loadContents(tx.db, [revisionId])).get(revisionId)!;
  // A copy of no page: its index is of nothing, whatever the original's holds.
  if (after.pages.length === 0 && (await indexDifference(tx, spaceId, '', emptyContent(), revisionId, after))) return;
  const from = copiedFrom.spaceId;
  const [copied] = await runSql(
    tx.db,
    sqlText`WITH moved AS (
        INSERT INTO search_index_state (space_id, revision_id, pages)
        SELECT ${spaceId}::text, ${revisionId}::text, pages FROM search_index_state WHERE space_id = ${from}::text AND revision_id = ${copiedFrom.revisionId}::text
        RETURNING 1),
      pages AS (
        INSERT INTO search_pages (space_id, page_id, digest, title, description, path, ancestors, tsv)
        SELECT ${spaceId}::text, page_id, digest, title, description, path, ancestors, tsv FROM search_pages
        WHERE space_id = ${from}::text AND EXISTS (SELECT 1 FROM moved)),
      pairs AS (
        INSERT INTO search_page_pairs (space_id, page_id, pairs)
        SELECT ${spaceId}::text, page_id, pairs FROM search_page_pairs WHERE space_id = ${from}::text AND EXISTS (SELECT 1 FROM moved)),
      sections AS (
        INSERT INTO search_sections (space_id, page_id, ordinal, section_id, title, ranked_title, body)
        SELECT ${spaceId}::text, page_id, ordinal, section_id, title, ranked_title, body FROM search_sections
        WHERE space_id = ${from}::text AND EXISTS (SELECT 1 FROM moved)),
      terms AS (
        INSERT INTO search_terms (space_id, lexeme, pages)
        SELECT ${spaceId}::text, lexeme, pages FROM search_terms WHERE space_id = ${from}::text AND EXISTS (SELECT 1 FROM moved))
      SELECT count(*) AS moved FROM moved`,
  );
  if (Number(copied?.moved ?? 0) === 0) await indexAtCommit(tx, spaceId, revisionId);
}
