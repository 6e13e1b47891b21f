// Full-text search of content with PostgreSQL's own text search (websearch_to_tsquery, ts_rank), the same
// on PGlite and on PostgreSQL. Pages are indexed ahead of time (search-index.ts: a stored tsvector per page
// under a GIN index, one per section, and each word's page count): a search counts the matching pages,
// ranks them and cuts the requested page of results, then reads the sections of those pages only, to tell
// which match; the server writes their excerpts (excerpt.ts).
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import { directQuery } from '../db/client.js';
import { decodeIdCursor, encodeCursor, invalidCursor, pageLimit, type PageRequest } from '../db/cursor.js';
import { excerpt, queryWords } from './excerpt.js';
import {
  attachedOrganizationRows,
  attachedSpaceSearch,
  organizationSearchAttached,
  spaceSearchAttached,
  type SearchRequest,
  type SearchWindow,
} from './search-attached.js';
import { catchUpBehind, ensureSpaceIndexed } from './search-index.js';

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

/** Where the answer to `request` starts and how much it holds; undefined when its `page` is not a cursor of ours (the handler answers 400). */
function windowOf(request: PageRequest): SearchWindow | undefined {
  try {
    return { offset: offsetOf(request.page), limit: pageLimit(request) };
  } catch {
    return undefined;
  }
}

interface Row {
  total: number | string;
  space_id: string;
  space_title: string;
  page_id: string;
  title: string;
  /** '' when the page has none. */
  description: string;
  path: string;
  ancestors: { title: string }[];
  /** The sections of the page matching the query on their own, in order; '' for the text before the first heading. */
  sections: { id: string; title: string; body: string }[];
  /** The query as the database read it (a tsquery's text form), on the first row. */
  query: string | null;
}

/**
 * Up to this many matching pages are ranked by their full text (ts_rank over each page's vector, a few
 * µs a page). A query matching more pages (a word on nearly every page) is ranked by the page titles
 * alone: the order then puts the pages whose title matches first, and the others by id, which lets a
 * one-word query read its first results along the primary key. Either way the order is total and fixed
 * for a given content, so `page` cursors (positions in it) stay consistent. `count` stays exact, but for the
 * organization search's walk (organizationRows).
 */
export const RANK_FULL_TEXT_UP_TO = 200;

/**
 * The pages of the space matching `query` at positions [offset, offset + limit) of their ranking, with
 * their total number. The query itself is the database function `search_content` (migrations 0017, 0022,
 * 0056), which each connection plans once. `attached`: the grant's row, which carries the search when the
 * space's index was current (spaceSearchRead).
 */
async function spaceRows(
  ctx: Ctx,
  space: { id: string; revisionId: string },
  query: string,
  offset: number,
  limit: number,
  attached?: Record<string, unknown>,
): Promise<{ rows: Row[]; total: number }> {
  // Each write of content indexes what it changed in its own transaction (index-at-commit.ts), so the index
  // is at the space's committed revision and the grant's statement carries the search. A space whose index
  // is behind all the same (written by a release before this one, until the sweep of index.job.ts catches it
  // up) is brought up to date here, so its reader never sees results older than the content they just read.
  // The organization search catches up nothing: it searches what is indexed, which is every committed write.
  const searched = attachedSpaceSearch(attached);
  if (searched === 'behind') await catchUpBehind(ctx, space.id, space.revisionId);
  else if (searched === undefined) await ensureSpaceIndexed(ctx, space.id, space.revisionId);
  const rows =
    searched !== undefined && searched !== 'behind'
      ? (searched.rows as unknown as Row[])
      : ((await directQuery(
          ctx.db,
          'search_content',
          'SELECT * FROM search_content($1, $2, NULL, $3::integer, $4::integer, $5::integer, NULL)',
          // Numbers as text: PGlite's prepared statements take text parameters only (server/db/client.ts).
          [query, space.id, String(offset), String(limit), String(RANK_FULL_TEXT_UP_TO)],
        )) as unknown as Row[]);
  // No match, or past the last result: the one row carries the total alone (no page).
  const total = rows.length > 0 ? Number(rows[0].total) : 0;
  return { rows: rows.filter((row) => row.page_id !== null), total };
}

/**
 * The space search of `request` as its grant's statement reads it (search-attached.ts): the check that
 * the space's index is current, and the search when it is.
 */
export function spaceSearchRead(request: SearchRequest) {
  return spaceSearchAttached(windowOf(request), request, RANK_FULL_TEXT_UP_TO);
}

/**
 * At most this many matching pages in one answer of the organization search (docs/decisions.md, "The
 * organization search answers a bounded page"): before, an answer held every matching page of each of its
 * spaces, and a common word in a workspace of 10,000 pages answered 8,780 of them (4.4 MB).
 */
export const ORGANIZATION_SEARCH_PAGES = 100;

type OrganizationRow = Omit<Row, 'total'> & { spaces: number | string; more: boolean; position: number | string | null };

/**
 * The pages matching `query` in the live spaces of the organization `userId` can see (null: all of them),
 * in one order of every match (the spaces by their best page, each space's pages best first), from
 * position `offset` on: at most `limit` spaces and ORGANIZATION_SEARCH_PAGES pages. With the number of
 * matching spaces and whether more matches follow. The database function `search_organization_content`
 * (migrations 0056 and 0058: when a query of plain words may match more than RANK_FULL_TEXT_UP_TO pages, it
 * walks the order and stops early, and the number is of the spaces holding every word of it). `attached`:
 * the grant's row, which carries them for a member (organizationSearchRead).
 */
async function organizationRows(
  ctx: Ctx,
  organizationId: string,
  userId: string | null,
  query: string,
  offset: number,
  limit: number,
  attached?: Record<string, unknown>,
) {
  const rows = (attachedOrganizationRows(attached) ??
    (await directQuery(
      ctx.db,
      'search_organization_content',
      'SELECT * FROM search_organization_content($1, $2, $3, $4::integer, $5::integer, $6::integer, $7::integer)',
      [query, organizationId, userId, String(offset), String(limit), String(ORGANIZATION_SEARCH_PAGES), String(RANK_FULL_TEXT_UP_TO)],
    ))) as unknown as OrganizationRow[];
  const spaces = rows.length > 0 ? Number(rows[0].spaces) : 0;
  const more = rows.length > 0 && rows[0].more;
  return { rows: rows.filter((row) => row.page_id !== null), spaces, more };
}

/** The API form of each matching page, in row order, with its space. */
function resultsOf(ctx: Ctx, rows: Omit<Row, 'total'>[], offset: number, marks = true): { spaceId: string; spaceTitle: string; result: SearchSpaceResult }[] {
  const words = queryWords(rows[0]?.query ?? '');
  return rows.map((row, i) => {
    // The rows come in ranking order: the rank is the position in the whole result set, the score its inverse.
    const rank = offset + i + 1;
    const score = 1 / rank;
    const url = ctx.urls.app(`/s/${row.space_id}/${row.path}`);
    // No section matches when the page matches only as a whole (words of a phrase or of an AND in different
    // sections); the text before the first heading is a section only when it has text (a title match alone).
    const sections = row.sections
      .filter((section) => section.id !== '' || /\S/.test(section.body))
      .map((section) => ({
        id: section.id,
        title: section.title,
        path: section.id === '' ? row.path : `${row.path}#${section.id}`,
        body: excerpt(section.body, words, marks),
        score,
        urls: { app: section.id === '' ? url : `${url}#${section.id}` },
      }));
    return {
      spaceId: row.space_id,
      spaceTitle: row.space_title,
      result: { id: row.page_id, title: row.title, description: row.description, path: row.path, sections, ancestors: row.ancestors, score, rank, urls: { app: url } },
    };
  });
}

function envelope<I>(items: I[], total: number, offset: number, limit: number) {
  return {
    items,
    count: total,
    ...(offset + items.length < total && items.length > 0 && { next: { page: encodeCursor([positionKey(offset + items.length - 1)]) } }),
  };
}

/**
 * A page of the pages of the space matching `query`, best first, each with its matching sections; their
 * excerpts mark the matching words `<b>…</b>` unless `options.marks` is false (excerpt.ts).
 */
export async function searchSpace(
  ctx: Ctx,
  space: { id: string; revisionId: string },
  query: string,
  request: PageRequest,
  options: { marks?: boolean } = {},
  attached?: Record<string, unknown>,
) {
  const offset = offsetOf(request.page);
  const limit = pageLimit(request);
  const { rows, total } = await spaceRows(ctx, space, query, offset, limit, attached);
  return envelope(resultsOf(ctx, rows, offset, options.marks ?? true).map((r) => r.result), total, offset, limit);
}

/**
 * A page of the live spaces of the organization matching `query` that `userId` can see (null: all), in the
 * order of their best page, each with its matching pages best first: at most `limit` spaces and
 * ORGANIZATION_SEARCH_PAGES pages. A page's `rank` is its position in the one order of every match; the
 * `next` cursor goes on from the last page answered, so a space cut by the bound comes again at the start
 * of the next answer with its following pages. `count` is the number of matching spaces.
 */
export async function searchOrganization(
  ctx: Ctx,
  organizationId: string,
  userId: string | null,
  query: string,
  request: PageRequest,
  attached?: Record<string, unknown>,
) {
  const offset = offsetOf(request.page);
  const limit = pageLimit(request);
  const { rows, spaces, more } = await organizationRows(ctx, organizationId, userId, query, offset, limit, attached);
  const bySpace = new Map<string, { type: 'space'; id: string; title: string; score: number; pages: SearchSpaceResult[] }>();
  for (const { spaceId, spaceTitle, result } of resultsOf(ctx, rows, offset)) {
    // Pages come best first: a space's first page here is its best in this answer.
    const entry = bySpace.get(spaceId) ?? { type: 'space' as const, id: spaceId, title: spaceTitle, score: result.score, pages: [] };
    entry.pages.push(result);
    bySpace.set(spaceId, entry);
  }
  return {
    items: [...bySpace.values()],
    count: spaces,
    ...(rows.length > 0 && more && { next: { page: encodeCursor([positionKey(offset + rows.length - 1)]) } }),
  };
}

/**
 * The organization search of `request` as its grant's statement reads it (search-attached.ts), with the
 * spaces the member sees as the handler chooses them from the grant's role (an admin: all of them).
 */
export function organizationSearchRead(ctx: Ctx, request: SearchRequest) {
  return organizationSearchAttached(ctx, windowOf(request), request, { pages: ORGANIZATION_SEARCH_PAGES, rankFullTextUpTo: RANK_FULL_TEXT_UP_TO });
}
