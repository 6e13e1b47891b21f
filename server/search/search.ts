// Full-text search of content with PostgreSQL's own text search (websearch_to_tsquery, ts_rank,
// ts_headline), the same on PGlite and on PostgreSQL. Pages are cut into sections at their headings and
// indexed ahead of time (search-index.ts: a stored tsvector per section under a GIN index), so one query
// finds the matching sections, ranks their pages, cuts the requested page of results and writes excerpts
// (ts_headline) for that page of results only.
import { sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import { queryRows } from '../db/client.js';
import { decodeIdCursor, encodeCursor, invalidCursor } from '../db/cursor.js';
import { ensureIndexed } from './search-index.js';

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
  space_id: string;
  page_id: string;
  total: number | string;
  title: string;
  path: string;
  ancestors: { title: string }[];
  section_id: string;
  section_title: string;
  has_body: boolean;
  headline: string;
}

/**
 * The ranked items (pages, or spaces when `bySpace`) matching `query` in the given spaces: the rows of
 * the items at positions [offset, offset + limit), with the total number of items.
 */
async function searchRows(
  ctx: Ctx,
  scope: { spaceIds: string[]; revisionId?: string },
  query: string,
  bySpace: boolean,
  offset: number,
  limit: number,
): Promise<{ rows: Row[]; total: number }> {
  const { spaceIds } = scope;
  await ensureIndexed(ctx, spaceIds, scope.revisionId);
  const spaces = sql`ARRAY[${sql.join(spaceIds.map((id) => sql`${id}`), sql`, `)}]::text[]`;
  const chosen = bySpace
    ? sql`ranked_spaces AS (SELECT space_id, max(rank) AS rank FROM pages GROUP BY space_id),
          chosen_spaces AS (SELECT space_id, rank, count(*) OVER () AS total FROM ranked_spaces ORDER BY rank DESC, space_id LIMIT ${limit} OFFSET ${offset}),
          chosen AS (SELECT p.space_id, p.page_id, p.rank, s.rank AS item_rank, s.total FROM pages p JOIN chosen_spaces s USING (space_id))`
    : sql`chosen AS (SELECT space_id, page_id, rank, rank AS item_rank, count(*) OVER () AS total FROM pages ORDER BY rank DESC, page_id LIMIT ${limit} OFFSET ${offset})`;
  const rows = await queryRows<Row>(
    ctx.db,
    sql`WITH q AS (SELECT websearch_to_tsquery('english', ${query}) AS q),
        hits AS (
          SELECT s.space_id, s.page_id, s.ordinal, ts_rank(s.tsv, q.q) AS rank
          FROM search_sections s, q WHERE s.space_id = ANY(${spaces}) AND s.tsv @@ q.q
        ),
        pages AS (SELECT space_id, page_id, max(rank) AS rank FROM hits GROUP BY space_id, page_id),
        ${chosen}
        SELECT c.space_id, c.page_id, c.total, p.title, p.path, p.ancestors,
               s.section_id, s.title AS section_title, s.body ~ '\\S' AS has_body,
               ts_headline('english', s.body, q.q, 'MaxFragments=1, MaxWords=30, MinWords=10') AS headline
        FROM chosen c
        JOIN search_pages p ON p.space_id = c.space_id AND p.page_id = c.page_id
        JOIN hits h ON h.space_id = c.space_id AND h.page_id = c.page_id
        JOIN search_sections s ON s.space_id = h.space_id AND s.page_id = h.page_id AND s.ordinal = h.ordinal
        CROSS JOIN q
        ORDER BY c.item_rank DESC, c.space_id, c.rank DESC, c.page_id, s.ordinal`,
  );
  if (rows.length > 0 || offset === 0) return { rows, total: rows.length > 0 ? Number(rows[0].total) : 0 };
  // Past the last result: the rows carry no total, so count on their own.
  const [{ total }] = await queryRows<{ total: number | string }>(
    ctx.db,
    sql`SELECT count(DISTINCT ${bySpace ? sql`s.space_id` : sql`(s.space_id, s.page_id)`}) AS total
        FROM search_sections s WHERE s.space_id = ANY(${spaces}) AND s.tsv @@ websearch_to_tsquery('english', ${query})`,
  );
  return { rows, total: Number(total) };
}

/** The API form of each matching page, in row order, with its space. */
function resultsOf(ctx: Ctx, rows: Row[]): { spaceId: string; result: SearchSpaceResult }[] {
  const byPage = new Map<string, { spaceId: string; result: SearchSpaceResult }>();
  for (const row of rows) {
    const key = `${row.space_id}/${row.page_id}`;
    const app = (suffix: string) => ctx.urls.app(`/s/${row.space_id}/${row.path}${suffix}`);
    let entry = byPage.get(key);
    if (!entry) {
      entry = {
        spaceId: row.space_id,
        result: { id: row.page_id, title: row.title, path: row.path, sections: [], ancestors: row.ancestors, urls: { app: app('') } },
      };
      byPage.set(key, entry);
    }
    // The text before the first heading is a section only when it has text (a page can match by title alone).
    if (row.section_id === '' && !row.has_body) continue;
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
  const { rows, total } = await searchRows(ctx, { spaceIds: [space.id], revisionId: space.revisionId }, query, false, offset, limit);
  return envelope(resultsOf(ctx, rows).map((r) => r.result), total, offset, limit);
}

/** A page of the spaces matching `query`, in the order of their best page, each with its matching pages. */
export async function searchSpaces(ctx: Ctx, spaces: { id: string; title: string }[], query: string, request: PageRequest) {
  const offset = offsetOf(request.page);
  const limit = request.limit ?? 100;
  if (spaces.length === 0) return envelope([], 0, offset, limit);
  const { rows, total } = await searchRows(ctx, { spaceIds: spaces.map((s) => s.id) }, query, true, offset, limit);
  const titles = new Map(spaces.map((s) => [s.id, s.title]));
  const bySpace = new Map<string, { id: string; title: string; pages: SearchSpaceResult[] }>();
  for (const { spaceId, result } of resultsOf(ctx, rows)) {
    const entry = bySpace.get(spaceId) ?? { id: spaceId, title: titles.get(spaceId) ?? '', pages: [] };
    entry.pages.push(result);
    bySpace.set(spaceId, entry);
  }
  return envelope([...bySpace.values()], total, offset, limit);
}
