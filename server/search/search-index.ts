// Keeps the full-text index (search_pages, search_sections, search_page_pairs, search_terms) in step with
// the spaces' current revisions.
// Each write of a space's content indexes the pages it changed at commit (index-at-commit.ts). The catch-up
// here brings a space that is behind anyway (written by a release before this one) up to date: the job of
// index.job.ts, or the search of such a space, so a reader of it never sees it stale. Pages are compared by
// a digest of what is indexed, so only the changed pages (and those under a renamed or moved parent) are
// indexed again. Two catch-ups of the same space queue on its state row, and the second finds the work done.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { slugify } from '../content/apply-changes.js';
import { pageMarkdown } from '../content/page-content.js';
import type { PagesById } from '../content/page-index.js';
import { pagePath, type RevisionContent, type StoredPage } from '../content/revision-content.js';
import { loadRevision } from '../content/revisions.store.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { searchIndexState, searchPages, spaces } from '../db/schema/index.js';
import { rawSql, runSql, sqlText, type SqlFragment } from '../db/sql-text.js';

interface IndexedSection {
  ordinal: number;
  sectionId: string;
  title: string;
  rankedTitle: string;
  body: string;
}

export interface IndexedPage {
  pageId: string;
  digest: string;
  title: string;
  /** '' when the page has none. */
  description: string;
  path: string;
  ancestors: { title: string }[];
  /** The page, whose Markdown is written only when it is indexed again. */
  page: StoredPage;
}

/** The sections of a page: the text before the first heading (under the page title), then one per heading. */
export function sectionsOf(page: StoredPage, markdown = pageMarkdown(page)): IndexedSection[] {
  const sections = [{ sectionId: '', title: page.title, body: '' }];
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) sections.push({ sectionId: slugify(heading[1]), title: heading[1], body: '' });
    else sections[sections.length - 1].body += `${line}\n`;
  }
  return sections
    .filter((s, i) => i === 0 || s.body.trim() !== '' || s.title !== '')
    .map((s, ordinal) => ({ ...s, ordinal, rankedTitle: s.sectionId === '' ? s.title : `${page.title} ${s.title}` }));
}

/** The indexed form of `page`, its path and ancestors read through `byId` (the pages of its revision). */
export function indexedPage(byId: PagesById, page: StoredPage): IndexedPage {
  const ancestors: { title: string }[] = [];
  const seen = new Set([page.id]);
  for (let p = page.parent ? byId.get(page.parent) : undefined; p && !seen.has(p.id); p = p.parent ? byId.get(p.parent) : undefined) {
    seen.add(p.id);
    ancestors.unshift({ title: p.title });
  }
  const path = pagePath(byId, page);
  const description = page.description ?? '';
  const digest = createHash('sha1').update(JSON.stringify([page.title, description, path, ancestors, page.document ?? page.markdown])).digest('base64url');
  return { pageId: page.id, digest, title: page.title, description, path, ancestors, page };
}

function indexedPages(content: RevisionContent): IndexedPage[] {
  const byId = new Map(content.pages.map((p) => [p.id, p]));
  return content.pages.map((page) => indexedPage(byId, page));
}

// Rows per INSERT: one JSON parameter each, small enough for either driver.
export const BATCH_PAGES = 1000;
export const ANALYZE_AFTER_PAGES = 500;

// The revision this process last saw indexed, per space. The index only ever moves to a space's current
// revision, so when the caller's fresh read of the space names that same revision, the index holds it
// and the search skips the check (one round trip fewer on every repeated search).
const indexedHere = new LRUCache<string, string>({ max: 10_000 });

/**
 * Brings the index of a space up to its current revision: nothing when it is known to be at
 * `knownRevision` (the revision the caller just read), else one query, and a catch-up if it is behind.
 */
export async function ensureSpaceIndexed(ctx: Ctx, spaceId: string, knownRevision: string): Promise<void> {
  if (indexedHere.get(spaceId) === knownRevision) return;
  const [row] = await ctx.db
    .select({ revisionId: spaces.revisionId, indexed: searchIndexState.revisionId })
    .from(spaces)
    .leftJoin(searchIndexState, eq(searchIndexState.spaceId, spaces.id))
    .where(eq(spaces.id, spaceId));
  if (!row) return;
  if (row.indexed !== row.revisionId) await catchUp(ctx, spaceId);
  indexedHere.set(spaceId, row.revisionId);
}

/**
 * Brings the index of a space its grant's statement found behind `knownRevision` (search-attached.ts) up
 * to date, without asking again.
 */
export async function catchUpBehind(ctx: Ctx, spaceId: string, knownRevision: string): Promise<void> {
  await catchUp(ctx, spaceId);
  indexedHere.set(spaceId, knownRevision);
}

async function catchUp(ctx: Ctx, spaceId: string): Promise<void> {
  await ctx.transaction((tx) => catchUpIn(tx, spaceId));
}

/** Brings one space's index to its current revision, in a transaction of its own: the job of index.job.ts. */
export async function catchUpSpace(db: Db, spaceId: string): Promise<void> {
  await db.transaction((tx) => catchUpIn({ db: tx as unknown as Db }, spaceId));
}

/** Brings one space's index to its current revision, in the caller's transaction; the number of pages it indexed anew. */
export async function catchUpIn(tx: Pick<Ctx, 'db'>, spaceId: string): Promise<number> {
  // The space's row first, shared: a write of its content holds it (and indexes at commit, index-at-commit.ts),
  // so a catch-up waits for a write in progress and a write for the catch-up, each then seeing the other's
  // rows (a statement of either could otherwise miss the rows the other was committing); a write that
  // catches up itself holds it already. Then the index's state row, in the same order as a write takes them.
  const [space] = await tx.db.select({ revisionId: spaces.revisionId, createdAt: spaces.createdAt }).from(spaces).where(eq(spaces.id, spaceId)).for('share');
  if (!space) return 0;
  await tx.db.insert(searchIndexState).values({ spaceId, revisionId: '' }).onConflictDoNothing();
  const [state] = await tx.db.select().from(searchIndexState).where(eq(searchIndexState.spaceId, spaceId)).for('update');
  if (state.revisionId === space.revisionId) return 0;

  const { content } = await loadRevision(tx.db, space.revisionId, space.createdAt);
  const wanted = indexedPages(content);
  // A row without a description was indexed before descriptions were (migration 0053): never kept.
  const have = new Map(
    (
      await tx.db
        .select({ pageId: searchPages.pageId, digest: searchPages.digest, described: sql<boolean>`${searchPages.description} IS NOT NULL` })
        .from(searchPages)
        .where(eq(searchPages.spaceId, spaceId))
    ).map((r) => [r.pageId, r.described ? r.digest : null]),
  );
  const keep = new Set(wanted.filter((p) => have.get(p.pageId) === p.digest).map((p) => p.pageId));
  const gone = [...have.keys()].filter((id) => !keep.has(id));
  for (let i = 0; i < gone.length; i += BATCH_PAGES) await runSql(tx.db, sqlText`WITH ${deletePagesSql(spaceId, gone.slice(i, i + BATCH_PAGES))} SELECT 1`);
  const fresh = wanted.filter((p) => !keep.has(p.pageId));
  for (let i = 0; i < fresh.length; i += BATCH_PAGES) await insertPages(tx, spaceId, fresh.slice(i, i + BATCH_PAGES));
  // After a big change the planner needs fresh statistics to pick the GIN index over a scan of the
  // space's sections; PGlite has no autovacuum to gather them, and PostgreSQL's comes later.
  if (fresh.length >= ANALYZE_AFTER_PAGES) await tx.db.execute(sql`ANALYZE search_pages, search_sections`);
  await tx.db.update(searchIndexState).set({ revisionId: space.revisionId, pages: wanted.length }).where(eq(searchIndexState.spaceId, spaceId));
  return fresh.length;
}

/**
 * The common table expressions that index `pages` (for a `WITH`, before its final SELECT): their rows,
 * their word pairs, their words' counts (so the counts are of exactly the rows written) and their sections.
 * `gate`: a CTE the writes wait for and depend on (index-at-commit.ts: the index state moved), when given.
 */
export function insertPagesSql(spaceId: string, pages: IndexedPage[], gate?: string): SqlFragment {
  const written = pages.map((p) => ({ ...p, markdown: pageMarkdown(p.page) }));
  const pageRows = JSON.stringify(
    written.map(({ pageId, digest, title, description, path, ancestors, markdown }) => ({ pageId, digest, title, description, path, ancestors, markdown })),
  );
  const sectionRows = JSON.stringify(written.flatMap((p) => sectionsOf(p.page, p.markdown).map((s) => ({ pageId: p.pageId, ...s }))));
  const gated = rawSql(gate ? `WHERE EXISTS (SELECT 1 FROM ${gate})` : '');
  // The sections name their page (a foreign key, checked at the statement's end, when the pages are in).
  return sqlText`inserted AS (
      INSERT INTO search_pages (space_id, page_id, digest, title, description, path, ancestors, tsv)
      SELECT ${spaceId}::text, p."pageId", p.digest, p.title, p.description, p.path, p.ancestors,
             setweight(to_tsvector('english', p.title), 'A') || to_tsvector('english', p.markdown)
      FROM jsonb_to_recordset(${pageRows}::jsonb) AS p("pageId" text, digest text, title text, description text, path text, ancestors jsonb, markdown text)
      ${gated}
      RETURNING space_id, page_id, tsv),
    paired AS (
      INSERT INTO search_page_pairs (space_id, page_id, pairs) SELECT space_id, page_id, search_word_pairs(tsv) FROM inserted),
    counted AS (
      INSERT INTO search_terms (space_id, lexeme, pages)
      SELECT ${spaceId}::text, w.lexeme, count(*)::integer FROM inserted CROSS JOIN LATERAL unnest(tsvector_to_array(inserted.tsv)) AS w(lexeme)
      GROUP BY w.lexeme
      ON CONFLICT (space_id, lexeme) DO UPDATE SET pages = search_terms.pages + excluded.pages),
    sectioned AS (
      INSERT INTO search_sections (space_id, page_id, ordinal, section_id, title, ranked_title, body)
      SELECT ${spaceId}::text, s."pageId", s.ordinal, s."sectionId", s.title, s."rankedTitle", s.body
      FROM jsonb_to_recordset(${sectionRows}::jsonb) AS s("pageId" text, ordinal int, "sectionId" text, title text, "rankedTitle" text, body text)
      ${gated})`;
}

/** Indexes pages, in one statement. */
async function insertPages(tx: Pick<Ctx, 'db'>, spaceId: string, pages: IndexedPage[]): Promise<void> {
  await runSql(tx.db, sqlText`WITH ${insertPagesSql(spaceId, pages)} SELECT 1`);
}

/**
 * The common table expressions that remove pages from the index (for a `WITH`, before its final SELECT):
 * their rows (their sections and pairs go with them), and their words from the counts, a word on no page
 * any more losing its row. `gate`: as for insertPagesSql.
 */
export function deletePagesSql(spaceId: string, pageIds: string[], gate?: string): SqlFragment {
  const gated = rawSql(gate ? `AND EXISTS (SELECT 1 FROM ${gate})` : '');
  // Keys as arrays computed once (`= ANY (ARRAY(…))`): probes of the primary keys whatever the plan, where a
  // join could scan every row of the space (a prepared statement's generic plan did, in a space of 10,000 pages).
  return sqlText`deleted AS (
      DELETE FROM search_pages
      WHERE space_id = ${spaceId}::text AND page_id = ANY (ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(pageIds)}::jsonb))) ${gated}
      RETURNING tsv),
    uncounted AS (
      SELECT coalesce(jsonb_object_agg(lexeme, pages), '{}'::jsonb) AS counts
      FROM (SELECT w.lexeme, count(*)::integer AS pages FROM deleted CROSS JOIN LATERAL unnest(tsvector_to_array(deleted.tsv)) AS w(lexeme) GROUP BY w.lexeme) u),
    emptied AS (
      DELETE FROM search_terms t
      WHERE t.space_id = ${spaceId}::text AND t.lexeme = ANY (ARRAY(SELECT jsonb_object_keys((SELECT counts FROM uncounted))))
        AND t.pages <= ((SELECT counts FROM uncounted) ->> t.lexeme)::integer),
    lowered AS (
      UPDATE search_terms t SET pages = t.pages - ((SELECT counts FROM uncounted) ->> t.lexeme)::integer
      WHERE t.space_id = ${spaceId}::text AND t.lexeme = ANY (ARRAY(SELECT jsonb_object_keys((SELECT counts FROM uncounted))))
        AND t.pages > ((SELECT counts FROM uncounted) ->> t.lexeme)::integer)`;
}
