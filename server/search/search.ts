// Full-text search of content with PostgreSQL's own text search (websearch_to_tsquery, ts_rank,
// ts_headline), the same on PGlite and on PostgreSQL. Pages are indexed ahead of time (search-index.ts: a
// stored tsvector per page under a GIN index, and one per section): a search counts the matching pages,
// ranks them and cuts the requested page of results, then reads the sections of those pages only, to tell
// which match and to write their excerpts (ts_headline).
import { sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import { queryRows } from '../db/client.js';
import { decodeIdCursor, encodeCursor, invalidCursor } from '../db/cursor.js';
import { ensureOrganizationIndexed, ensureSpaceIndexed } from './search-index.js';

type SearchSpaceResult = components['schemas']['SearchSpaceResult'];

/** Results are ranked, so the cursor is the position in the ranking (zero-padded to sort as text). */
const positionKey = (i: number) => String(i).padStart(10, '0');

/** The first position a page of results starts at, from its `page` cursor. */
function offsetOf(page: string | undefined): number {
  if (page === undefined) return 0;
  const key = decodeIdCursor(page);
  if (!/^\d{1,10}$/.test(key)) throw invalidCursor();
  return Number(key) + 1;
}

interface Row {
  total: number | string;
  space_id: string;
  space_title: string;
  page_id: string;
  title: string;
  path: string;
  ancestors: { title: string }[];
  section_id: string | null;
  section_title: string;
  has_body: boolean;
  headline: string;
}

/**
 * Up to this many matching pages are ranked by their full text (ts_rank over each page's vector, which
 * is read from TOAST and costs ~10–20 µs a page). A query matching more pages (a word on nearly every
 * page) is ranked by the page titles alone, a vector kept in the row: the order then puts the pages whose
 * title matches first, and the others by id. Either way the order is total and fixed for a given content,
 * so `page` cursors (positions in it) stay consistent, and `count` stays exact.
 */
export const RANK_FULL_TEXT_UP_TO = 200;

/** What a search covers: one space (at the revision the caller read), or every live space of an organization. */
type Scope = { spaceId: string; revisionId: string } | { organizationId: string };

/**
 * The ranked items (pages, or spaces when `bySpace`) matching `query` in the scope: the rows of the items
 * at positions [offset, offset + limit), with the total number of items.
 */
async function searchRows(ctx: Ctx, scope: Scope, query: string, bySpace: boolean, offset: number, limit: number): Promise<{ rows: Row[]; total: number }> {
  if ('spaceId' in scope) await ensureSpaceIndexed(ctx, scope.spaceId, scope.revisionId);
  else await ensureOrganizationIndexed(ctx, scope.organizationId);
  // The organization's spaces stay in the database: their number does not weigh on the server.
  const inScope =
    'spaceId' in scope
      ? sql`p.space_id = ${scope.spaceId}`
      : sql`p.space_id IN (SELECT id FROM spaces WHERE organization_id = ${scope.organizationId} AND deleted_at IS NULL)`;
  const bySpaceTotal = bySpace ? sql`count(DISTINCT space_id)` : sql`count(*)`;
  // The item order: by the full text when few pages match, else by title (see RANK_FULL_TEXT_UP_TO). The
  // page vector is read again (by primary key) only in the first case.
  const rank = sql`CASE WHEN n.pages <= ${RANK_FULL_TEXT_UP_TO}
    THEN (SELECT ts_rank(v.tsv, q.q) FROM search_pages v WHERE v.space_id = m.space_id AND v.page_id = m.page_id)
    ELSE m.title_rank END`;
  const chosen = bySpace
    ? sql`chosen_spaces AS (SELECT space_id, max(rank) AS item_rank FROM ranked GROUP BY space_id ORDER BY item_rank DESC, space_id LIMIT ${limit} OFFSET ${offset}),
          chosen AS (SELECT r.*, s.item_rank FROM ranked r JOIN chosen_spaces s USING (space_id))`
    : sql`chosen AS (SELECT *, rank AS item_rank FROM ranked ORDER BY rank DESC, page_id LIMIT ${limit} OFFSET ${offset})`;
  return ctx.transaction(async (tx) => {
    // The planner prefers reading every row of the space when a word is on most pages, which reads and
    // decompresses every page's vector; the GIN bitmap answers a plain word without reading any vector
    // (measured on PGlite, 10,000 pages: count 100+ ms by the scan, 5–17 ms by the bitmap).
    await tx.db.execute(sql`SET LOCAL enable_seqscan = off`);
    // One pass over the matching pages gives the count and the title ranks (MATERIALIZED: the count and the
    // ranking read it once); only the sections of the returned pages are read then (by primary key; "IS
    // TRUE" keeps the planner off the vector), and only they get an excerpt (ts_headline parses the text
    // again, ~0.1-0.3 ms a section).
    const rows = await queryRows<Row>(
      tx.db,
      sql`WITH q AS (SELECT websearch_to_tsquery('english', ${query}) AS q),
          m AS MATERIALIZED (
            SELECT p.space_id, p.page_id, ts_rank(p.title_tsv, q.q) AS title_rank
            FROM search_pages p, q WHERE ${inScope} AND p.tsv @@ q.q),
          n AS (SELECT count(*) AS pages, ${bySpaceTotal} AS total FROM m),
          ranked AS (SELECT m.space_id, m.page_id, ${rank} AS rank FROM m, n, q),
          ${chosen}
          SELECT n.total, c.space_id, sp.title AS space_title, c.page_id, p.title, p.path, p.ancestors,
                 s.section_id, s.title AS section_title, s.body ~ '\\S' AS has_body,
                 ts_headline('english', s.body, q.q, 'MaxFragments=1, MaxWords=30, MinWords=10') AS headline
          FROM chosen c CROSS JOIN q CROSS JOIN n
          JOIN search_pages p ON p.space_id = c.space_id AND p.page_id = c.page_id
          JOIN spaces sp ON sp.id = c.space_id
          LEFT JOIN search_sections s ON s.space_id = c.space_id AND s.page_id = c.page_id AND (s.tsv @@ q.q) IS TRUE
          ORDER BY c.item_rank DESC, c.space_id, c.rank DESC, c.page_id, s.ordinal`,
    );
    if (rows.length > 0) return { rows, total: Number(rows[0].total) };
    // No match, or past the last result: the rows carry no total, so count on their own.
    const [{ total }] = await queryRows<{ total: number | string }>(
      tx.db,
      sql`SELECT ${bySpaceTotal} AS total FROM search_pages p WHERE ${inScope} AND p.tsv @@ websearch_to_tsquery('english', ${query})`,
    );
    return { rows, total: Number(total) };
  });
}

/** The API form of each matching page, in row order, with its space. */
function resultsOf(ctx: Ctx, rows: Row[]): { spaceId: string; spaceTitle: string; result: SearchSpaceResult }[] {
  const byPage = new Map<string, { spaceId: string; spaceTitle: string; result: SearchSpaceResult }>();
  for (const row of rows) {
    const key = `${row.space_id}/${row.page_id}`;
    const app = (suffix: string) => ctx.urls.app(`/s/${row.space_id}/${row.path}${suffix}`);
    let entry = byPage.get(key);
    if (!entry) {
      entry = {
        spaceId: row.space_id,
        spaceTitle: row.space_title,
        result: { id: row.page_id, title: row.title, path: row.path, sections: [], ancestors: row.ancestors, urls: { app: app('') } },
      };
      byPage.set(key, entry);
    }
    // No section matches when the page matches only as a whole (words of a phrase or of an AND in different
    // sections); the text before the first heading is a section only when it has text (a title match alone).
    if (row.section_id === null || (row.section_id === '' && !row.has_body)) continue;
    entry.result.sections.push({
      id: row.section_id,
      title: row.section_title,
      path: row.section_id === '' ? row.path : `${row.path}#${row.section_id}`,
      body: row.headline,
      urls: { app: app(row.section_id === '' ? '' : `#${row.section_id}`) },
    });
  }
  return [...byPage.values()];
}

interface PageRequest {
  page?: string;
  limit?: number;
}

function envelope<I>(items: I[], total: number, offset: number, limit: number) {
  return {
    items,
    count: total,
    ...(offset + items.length < total && items.length > 0 && { next: { page: encodeCursor([positionKey(offset + items.length - 1)]) } }),
  };
}

/** A page of the pages of the space matching `query`, best first, each with its matching sections. */
export async function searchSpace(ctx: Ctx, space: { id: string; revisionId: string }, query: string, request: PageRequest) {
  const offset = offsetOf(request.page);
  const limit = request.limit ?? 100;
  const { rows, total } = await searchRows(ctx, { spaceId: space.id, revisionId: space.revisionId }, query, false, offset, limit);
  return envelope(resultsOf(ctx, rows).map((r) => r.result), total, offset, limit);
}

/**
 * A page of the live spaces of the organization matching `query`, in the order of their best page, each
 * with its matching pages.
 */
export async function searchOrganization(ctx: Ctx, organizationId: string, query: string, request: PageRequest) {
  const offset = offsetOf(request.page);
  const limit = request.limit ?? 100;
  const { rows, total } = await searchRows(ctx, { organizationId }, query, true, offset, limit);
  const bySpace = new Map<string, { id: string; title: string; pages: SearchSpaceResult[] }>();
  for (const { spaceId, spaceTitle, result } of resultsOf(ctx, rows)) {
    const entry = bySpace.get(spaceId) ?? { id: spaceId, title: spaceTitle, pages: [] };
    entry.pages.push(result);
    bySpace.set(spaceId, entry);
  }
  return envelope([...bySpace.values()], total, offset, limit);
}
