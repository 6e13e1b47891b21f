// The other spaces a `dereferenced=true` read takes reusable contents from (docs/headless-reads.md,
// "Dereferenced documents"), read in the statement of the read's own grant (server/auth/attached-read.ts), so
// that the read is one round trip whatever its page includes.
//
// Which spaces those are is decided in SQL from the stored JSON, not from a table kept at write time: the
// page's Document (content_documents, by the hash its revision's page list names; or inline, or Markdown, in
// rows written before Documents were stored apart), and the reusable contents of its revision, name them in
// their `reusable-content` blocks (`data.ref.space`). A table would have to be kept right by every write of
// pages and reusable contents, for a read that the stored JSON already answers with one index lookup. The
// statement then walks level by level: the spaces named so far that the caller may read (the same rule as a
// request to each: auth/space-read-sql.ts), with their current revision's reusable contents, which name the
// next level's. 10 other spaces at most, the first met: level by level, each level in the order its
// documents name them. A space that is not readable is left out of the answer, so its blocks stay references.
//
// Reusable contents of a revision never change, so they are kept here by revision id: the statement sends
// those of a revision this process said it holds only as its id.
import { LRUCache } from 'lru-cache';
import type { SpaceGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { spaceReadSql } from '../auth/space-read-sql.js';
import type { Ctx } from '../context.js';
import { attachAll, type AttachedRead } from '../db/attached-select.js';
import { directQuery } from '../db/client.js';
import { positionOf } from '../content/page-index.js';
import type { StoredReusableContent } from '../content/revision-content.js';
import { lastCurrentRevision } from '../content/revision-attached.js';
import { heldContent } from '../content/revisions.store.js';
import { shared } from '../content/shared-values.js';
import { runSql, sqlText, statementName } from '../db/sql-text.js';
import { findPageByPath, normalizePagePath } from './page-lookup.js';

/** How many other spaces one read may take reusable contents from. */
const MAX_SPACES = 10;

/** How the read names the page whose Document it shows: by id, by path, or none (a reusable content's document). */
export type ShownPage = 'id' | 'path' | 'none';

/** The spaces a `reusable-content` block names (`data.ref.space`), in the order of the JSON (blocks before their children). */
const namedIn = (json: string) =>
  `jsonb_path_query(${json}, 'strict $.** ? (@.object == "block" && @.type == "reusable-content" && @.data.ref.kind == "reusable-content" && @.data.ref.reusableContent.type() == "string" && @.data.ref.space.type() == "string").data.ref.space', '{}', true)`;

/** An include of another space's content in a page stored as Markdown (markdown-refs.ts `otherSpaceReusablePath`). */
const MARKDOWN_INCLUDE = `'gitbook:spaces/([^/"''\\s)]+)/reusable-contents/'`;

/** The page the read shows, found in the revision's page list (`listed`): by `$page` (its id) or `$path`. */
const pageSql: Record<Exclude<ShownPage, 'none'>, (page: string) => string> = {
  id: (page) => `page AS (SELECT l.e FROM listed l WHERE l.e->>'id' = ${page} ORDER BY l.n LIMIT 1)`,
  // The path of a page is its ancestors' slugs and its own (revision-content.ts pagePath): walked down from the
  // pages without a parent in the list, only along the ancestors of the path asked for.
  path: (path) => `paths(id, path, depth) AS (
      SELECT l.e->>'id', l.e->>'slug', 0 FROM listed l
        WHERE (l.e->>'parent' IS NULL OR NOT EXISTS (SELECT 1 FROM listed p WHERE p.e->>'id' = l.e->>'parent'))
          AND starts_with(${path} || '/', (l.e->>'slug') || '/')
      UNION ALL
      SELECT c.e->>'id', p.path || '/' || (c.e->>'slug'), p.depth + 1 FROM paths p JOIN listed c ON c.e->>'parent' = p.id
        WHERE p.depth < 64 AND starts_with(${path} || '/', p.path || '/' || (c.e->>'slug') || '/')
    ), page AS (SELECT l.e FROM paths p JOIN listed l ON l.e->>'id' = p.id WHERE p.path = ${path} ORDER BY l.n LIMIT 1)`,
};

/**
 * The page's Document (`doc`) or Markdown (`md`): by `hash` in the revision `held` when this process holds
 * it (it found the page itself), else from the page the revision's page list has (its inline rows, or its
 * chunks: page-chunks.ts).
 */
function shownSql(shown: Exclude<ShownPage, 'none'>, p: { held: string; hash: string; page: string }): string {
  const fast = `EXISTS (SELECT 1 FROM home h WHERE h.id = ${p.held} AND ${p.hash} IS NOT NULL)`;
  return `listed(e, n) AS (
      SELECT p.e, p.n FROM home h CROSS JOIN LATERAL jsonb_array_elements(COALESCE(h.content->'pages', '[]'::jsonb)) WITH ORDINALITY p(e, n)
      UNION ALL
      SELECT p.e, c.n * 100000 + p.n FROM home h CROSS JOIN LATERAL jsonb_array_elements_text(COALESCE(h.content->'pageChunks', '[]'::jsonb)) WITH ORDINALITY c(hash, n)
        JOIN content_documents d ON d.hash = c.hash CROSS JOIN LATERAL jsonb_array_elements(d.document) WITH ORDINALITY p(e, n)
    ), ${pageSql[shown](p.page)},
    shown(doc, md) AS (
      SELECT d.document, NULL::text FROM content_documents d WHERE d.hash = ${p.hash} AND ${fast}
      UNION ALL
      SELECT COALESCE(d.document, x.e->'document'), x.e->>'markdown' FROM page x LEFT JOIN content_documents d ON d.hash = x.e->>'documentHash' WHERE NOT ${fast}
    ),`;
}

/**
 * The statement's part: one row, `deref_spaces` the readable spaces reached (JSON text: `[space, revision,
 * reusable contents or null when `$known` names the revision]`, in the order met; null for none). Its
 * parameters from `first`: the revision read (null: the space's current one) and the revisions known; for a
 * page, the revision this process holds, the hash of the page's Document in it, and the page's id or path;
 * then the rule's.
 */
function otherSpacesSql(shown: ShownPage, rule: ReturnType<typeof spaceReadSql>) {
  return (first: number): string => {
    const [home, known] = [`$${first}::text`, `$${first + 1}::jsonb`];
    const [held, hash, page] = [`$${first + 2}::text`, `$${first + 3}::text`, `$${first + 4}::text`];
    const ruleAt = first + (shown === 'none' ? 2 : 5);
    const fromPage =
      shown === 'none'
        ? ''
        : `SELECT t.x #>> '{}', t.n FROM shown, ${namedIn('shown.doc')} WITH ORDINALITY t(x, n)
          UNION ALL
          SELECT q.m[1], 1000000 + q.n FROM shown, regexp_matches(COALESCE(shown.md, ''), ${MARKDOWN_INCLUDE}, 'g') WITH ORDINALITY q(m, n)
          UNION ALL
          `;
    const contents = `COALESCE(r.content->'reusableContents', '[]'::jsonb)`;
    return `SELECT (
    WITH RECURSIVE home AS (SELECT r.id, r.content FROM content_revisions r WHERE r.id = COALESCE(${home}, s.revision_id)),
    ${shown === 'none' ? '' : shownSql(shown, { held, hash, page })}
    seeds(sp, n) AS (
      ${fromPage}SELECT t.x #>> '{}', 2000000 + t.n FROM home h, ${namedIn(`h.content->'reusableContents'`)} WITH ORDINALITY t(x, n)
    ),
    walk(tried, named, entries) AS (
      SELECT ARRAY[s.id]::text[], (SELECT array_agg(sp ORDER BY n) FROM seeds), '[]'::jsonb
      UNION ALL
      SELECT w.tried || nx.ids, further.named, reached.entries
      FROM walk w
      CROSS JOIN LATERAL (
        SELECT array_agg(v.sp ORDER BY v.n) AS ids FROM (
          SELECT u.sp, min(u.n) AS n FROM unnest(w.named) WITH ORDINALITY u(sp, n) WHERE u.sp <> ALL (w.tried)
          GROUP BY u.sp ORDER BY 2 LIMIT ${MAX_SPACES + 1} - cardinality(w.tried)) v
      ) nx
      CROSS JOIN LATERAL (
        SELECT COALESCE(jsonb_agg(jsonb_build_array(x.id, x.revision_id,
            CASE WHEN x.revision_id IN (SELECT jsonb_array_elements_text(${known})) THEN NULL ELSE ${contents} END) ORDER BY u.n), '[]'::jsonb) AS entries,
          jsonb_agg(${contents} ORDER BY u.n) AS contents
        FROM unnest(nx.ids) WITH ORDINALITY u(id, n) JOIN spaces x ON x.id = u.id ${rule.join(ruleAt)}
          LEFT JOIN content_revisions r ON r.id = x.revision_id
        WHERE ${rule.condition(ruleAt)}
      ) reached
      CROSS JOIN LATERAL (SELECT array_agg(t.x #>> '{}' ORDER BY t.n) AS named FROM ${namedIn('reached.contents')} WITH ORDINALITY t(x, n)) further
      WHERE cardinality(nx.ids) > 0
    )
    SELECT jsonb_agg(e)::text FROM walk w CROSS JOIN LATERAL jsonb_array_elements(w.entries) e) AS deref_spaces`;
  };
}

/** Reusable contents of other spaces' revisions, by revision id (immutable), bounded by the size of their JSON. */
const contentsOf = new LRUCache<string, StoredReusableContent[]>({ maxSize: 32 * 1024 * 1024 });

/** The revisions of other spaces the last dereferenced read of a space reached here: those this process may say it holds. */
const reachedFrom = new LRUCache<string, string[]>({ max: 10_000 });

/** The reusable contents of the other space's revision `id` this process holds. */
const heldContents = (id: string): StoredReusableContent[] | undefined => contentsOf.get(id) ?? heldContent(id)?.reusableContents;

/** The revision this process holds of the read (`named`, or the space's current one as last read) and the hash of the page's Document in it. */
function heldPage(spaceId: string, named: string | null, shown: ShownPage, page: string | undefined): { held: string | null; hash: string | null } {
  const held = named ?? lastCurrentRevision(spaceId) ?? null;
  const content = held === null ? undefined : heldContent(held);
  if (!content || shown === 'none' || page === undefined) return { held: null, hash: null };
  let found;
  if (shown === 'id') found = content.pages[positionOf(content.pages, page)];
  else {
    try {
      found = findPageByPath(content, page);
    } catch {
      found = undefined; // not in it: the read answers 404, and the statement looks for nothing it needs
    }
  }
  return { held, hash: found?.documentHash ?? null };
}

/** The statement's part reading the other spaces a dereferenced read of the space `spaceId` includes content of. */
export function otherSpacesAttached(ctx: Ctx, spaceId: string, named: string | null, shown: ShownPage, page?: string): AttachedRead {
  const rule = spaceReadSql(ctx);
  const wanted = shown === 'path' && page !== undefined ? normalizePagePath(page) : page;
  const { held, hash } = heldPage(spaceId, named, shown, wanted);
  const known = (reachedFrom.get(spaceId) ?? []).filter((id) => heldContents(id) !== undefined);
  return {
    name: `other_spaces_${shown}_${rule.kind}`,
    sql: otherSpacesSql(shown, rule),
    params: [named, JSON.stringify(known), ...(shown === 'none' ? [] : [held, hash, wanted ?? null]), ...rule.params],
  };
}

/**
 * `base` (the read of the operation's revision) with, for `dereferenced=true`, the other spaces its documents
 * include content of; `shown` says how the path names the page (`{pageId}`, `{pagePath}`).
 */
export function withOtherSpaces(base: AttachedReadOf, shown: ShownPage): AttachedReadOf {
  return (params, ctx, query) => {
    const read = base(params, ctx, query);
    if (query.dereferenced !== 'true' || !read) return read;
    const page = shown === 'id' ? params.pageId : shown === 'path' ? params.pagePath : undefined;
    return attachAll('dereferenced', read, otherSpacesAttached(ctx, params.spaceId, params.revisionId ?? null, shown, page));
  };
}

/** The reusable contents of the other spaces `raw` (deref_spaces) names, those it did not send taken from this process. */
async function contentsFrom(ctx: Ctx, spaceId: string, raw: string | null): Promise<Map<string, StoredReusableContent[]>> {
  const entries = raw === null ? [] : (JSON.parse(raw) as [string, string, StoredReusableContent[] | null][]);
  const found = new Map<string, StoredReusableContent[]>();
  const missing: [string, string][] = [];
  for (const [space, revision, sent] of entries) {
    const contents = sent ?? heldContents(revision);
    if (sent) contentsOf.set(revision, shared(sent), { size: Math.max(1, JSON.stringify(sent).length * 2) });
    if (contents) found.set(space, contents);
    else missing.push([space, revision]);
  }
  reachedFrom.set(spaceId, entries.map(([, revision]) => revision));
  // Dropped from the caches between the statement and now (a busy process): read again, which is rare.
  if (missing.length > 0) {
    const rows = await runSql(
      ctx.db,
      sqlText`SELECT id, (content->'reusableContents')::text AS contents FROM content_revisions WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(missing.map(([, r]) => r))}::jsonb))`,
    );
    const byRevision = new Map(rows.map((row) => [row.id as string, JSON.parse((row.contents as string | null) ?? '[]') as StoredReusableContent[]]));
    for (const [space, revision] of missing) found.set(space, byRevision.get(revision) ?? []);
  }
  return found;
}

/**
 * The reusable contents of the other spaces the dereferenced read of `grant`'s space may include, by space:
 * from its grant's statement (withOtherSpaces); read alone when they did not come with it.
 */
export async function otherSpaceContents(ctx: Ctx, grant: SpaceGrant, named: string | null, shown: ShownPage, page?: string): Promise<Map<string, StoredReusableContent[]>> {
  const attached = grant.attached;
  if (attached && 'deref_spaces' in attached) return contentsFrom(ctx, grant.row.id, attached.deref_spaces as string | null);
  const read = otherSpacesAttached(ctx, grant.row.id, named, shown, page);
  const [row] = await directQuery(ctx.db, statementName('alone', `alone_${read.name}`), `SELECT a.* FROM spaces s CROSS JOIN LATERAL (${read.sql(2)}) a WHERE s.id = $1`, [grant.row.id, ...read.params]);
  return contentsFrom(ctx, grant.row.id, (row?.deref_spaces ?? null) as string | null);
}
