// The two searches read in the statement of their grant (server/auth/attached-read.ts), so that a search is
// one round trip: the search functions (search_content, search_organization_content) run in a LATERAL
// subquery of the grant query, their rows coming back as one JSON column in their order. search.ts reads
// them from there, or runs the function itself when they did not come (a caller whose access path attached
// nothing). A space's index is current whenever its content is committed (writers index at commit:
// index-at-commit.ts), so the space search is one statement; the statement still checks it, and a space
// whose index is behind (only one written by a release before, until the sweep of index.job.ts reaches it)
// is caught up first rather than answered stale.
import type { Ctx } from '../context.js';
import type { AttachedRead } from '../db/attached-select.js';

/** The request of a search as the operation validated it: its text and its page. */
export interface SearchRequest {
  query: string;
  page?: string;
  limit?: number;
}

/** Where a search's answer starts and how much it holds; undefined for a `page` cursor that is not one of ours. */
export interface SearchWindow {
  offset: number;
  limit: number;
}

/** The column the organization search's rows come back in. */
const ORGANIZATION_ROWS = 'organization_search_rows';
/** The columns of the space search: whether its index is current, and its rows when it is. */
const SPACE_CURRENT = 'space_search_current';
const SPACE_ROWS = 'space_search_rows';

/**
 * The organization search of `request` attached to the organization's grant (`o`), for a member only: their
 * membership is read again in the subquery, so the search runs only for a member (the grant refuses anyone
 * else, and their search would be work for nothing), with the spaces an admin sees (all: no user) or those
 * the member sees, as the handler decides from the grant's role. Nothing is attached for the other callers
 * (installations, integrations and site tokens cannot call it), whose search runs on its own.
 */
export function organizationSearchAttached(
  ctx: Ctx,
  window: SearchWindow | undefined,
  request: SearchRequest,
  bounds: { pages: number; rankFullTextUpTo: number },
): AttachedRead | undefined {
  const { installation, integration, site } = ctx.caller;
  if (!window || installation || integration || site) return undefined;
  return {
    name: 'organization_search',
    sql: (first) => {
      const [query, user, offset, limit, pages, upTo] = [0, 1, 2, 3, 4, 5].map((i) => `$${first + i}`);
      return `SELECT json_agg(to_json(r) ORDER BY r.ordinality) AS ${ORGANIZATION_ROWS}
      FROM (SELECT mm.role FROM members mm WHERE mm.organization_id = o.id AND mm.user_id = ${user} AND NOT mm.disabled) c
        CROSS JOIN LATERAL search_organization_content(${query}, o.id, CASE WHEN c.role = 'admin' THEN NULL ELSE ${user} END,
          ${offset}::integer, ${limit}::integer, ${pages}::integer, ${upTo}::integer) WITH ORDINALITY r`;
    },
    // Numbers as text: PGlite's prepared statements take text parameters only (server/db/client.ts).
    params: [request.query, ctx.caller.userId, String(window.offset), String(window.limit), String(bounds.pages), String(bounds.rankFullTextUpTo)],
  };
}

/** The organization search's rows as its grant read them; undefined when they did not come with it. */
export function attachedOrganizationRows(attached: Record<string, unknown> | undefined): Record<string, unknown>[] | undefined {
  const rows = attached?.[ORGANIZATION_ROWS];
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : undefined;
}

/**
 * The space search of `request` attached to the space's grant (`s`): whether the space's index is at its
 * current revision (the one the grant reads: always, for content this release wrote), and, when it is, the
 * search's rows. A search of a space whose index is behind brings it up to date first (search.ts).
 */
export function spaceSearchAttached(window: SearchWindow | undefined, request: SearchRequest, rankFullTextUpTo: number): AttachedRead | undefined {
  if (!window) return undefined;
  return {
    name: 'space_search',
    sql: (first) => {
      const [query, offset, limit, upTo] = [0, 1, 2, 3].map((i) => `$${first + i}`);
      // The CASE runs the search only in its branch: a space whose index is behind costs the check alone.
      return `SELECT x.current AS ${SPACE_CURRENT},
        CASE WHEN x.current AND s.deleted_at IS NULL THEN
          (SELECT json_agg(to_json(r) ORDER BY r.ordinality)
           FROM search_content(${query}, s.id, NULL, ${offset}::integer, ${limit}::integer, ${upTo}::integer, NULL) WITH ORDINALITY r)
        END AS ${SPACE_ROWS}
      FROM (SELECT EXISTS (SELECT 1 FROM search_index_state i WHERE i.space_id = s.id AND i.revision_id = s.revision_id)
        -- A space nobody wrote to (its revision has no row: no content) has an index of nothing, which is current.
        OR NOT EXISTS (SELECT 1 FROM search_index_state i WHERE i.space_id = s.id) AND NOT EXISTS (SELECT 1 FROM content_revisions r WHERE r.id = s.revision_id)
        AS current) x`;
    },
    params: [request.query, String(window.offset), String(window.limit), String(rankFullTextUpTo)],
  };
}

/**
 * What the space's grant read of its search: its rows when its index was current, `behind` when it was
 * not; undefined when nothing came with the grant.
 */
export function attachedSpaceSearch(attached: Record<string, unknown> | undefined): { rows: Record<string, unknown>[] } | 'behind' | undefined {
  if (!attached || !(SPACE_CURRENT in attached)) return undefined;
  if (attached[SPACE_CURRENT] !== true || !Array.isArray(attached[SPACE_ROWS])) return 'behind';
  return { rows: attached[SPACE_ROWS] as Record<string, unknown>[] };
}
