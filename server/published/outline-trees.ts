// The page trees URL resolution reads (server/headless/url-lookup.ts): a space's pages, paths, conditions and
// redirects at a revision, without their Documents, which resolution never shows. They come in the statement
// that finds the site (`treesAlong`), for the site spaces the URL's path can lead to whose revision this
// process does not hold, so an uncached resolution is one round trip; a tree resolution needs that did not
// come with it (the site held, so no statement was sent; a section reached because the default one is hidden
// from the visitor) is one statement more (`outlineTree`). A revision never changes, so a tree is kept per revision id; a tree with its Documents
// (site-data.ts `spaceTree`, the published site's) serves as well.
import { LRUCache } from 'lru-cache';
import { cacheStoredPairs, storedPairsSql } from '../content/content-documents.js';
import { isRevisionCached, loadRevision } from '../content/revisions.store.js';
import type { Db } from '../db/client.js';
import { rawSql, runSql, sqlText } from '../db/sql-text.js';
import { heldTree, treeOf, type PublishedSpace, type SiteAlong, type SiteStructure, type SpaceTree } from './site-data.js';

// As many as spaceTree keeps: their pages are the revision cache's own objects (revisions.store.ts), only the
// tree around them is this cache's.
const outlines = new LRUCache<string, SpaceTree>({ max: 500 });

/** The tree this process holds of the revision `revisionId`, with or without its Documents. */
function held(revisionId: string): SpaceTree | undefined {
  return heldTree(revisionId) ?? outlines.get(revisionId);
}

/**
 * One JSON array per revision of the rows `r` joined (LEFT, `w.id` the revision looked for): its id, whether it
 * has a row (a space never written to has none: the empty revision), the row's immutable part as text, and the
 * page chunks its row names (the page list without Documents, content-documents.ts).
 */
const outlineJson = `json_build_array(w.id, r.id IS NOT NULL, r.space_id, r.parents::text, r.type, r.created_at, r.content::text,
    ${storedPairsSql(`SELECT jsonb_array_elements_text(r.content->'pageChunks')`)})`;

type OutlineRow = [string, boolean, string | null, string | null, string | null, string | null, string | null, [string, string][] | null];

/** Keeps the trees of `rows` (what `outlineJson` answered), their chunks cached as content-documents.ts caches what it reads. */
async function keep(db: Db, rows: OutlineRow[]): Promise<void> {
  for (const [id, exists, spaceId, parents, type, createdAt, content, chunks] of rows) {
    cacheStoredPairs(chunks);
    const row = exists ? { space_id: spaceId, parents, type, created_at: createdAt, content } : undefined;
    // Prefetched, its chunks cached: no statement. The date given is an empty revision's creation, which no tree shows.
    const { content: read, parents: from } = await loadRevision(db, id, new Date(0), { documents: false, git: false }, { id, exists, row, withGit: false });
    outlines.set(id, treeOf(id, from, read));
  }
}

/** The page tree of a space at its current revision, without Documents: one statement at most. */
export async function outlineTree(db: Db, space: PublishedSpace): Promise<SpaceTree> {
  const known = held(space.revisionId);
  if (known) return known;
  if (!isRevisionCached(space.revisionId)) {
    const [raw] = await runSql(db, sqlText`SELECT (SELECT json_agg(${rawSql(outlineJson)}) FROM (SELECT ${space.revisionId}::text AS id) w LEFT JOIN content_revisions r ON r.id = w.id) AS trees`);
    await keep(db, (raw?.trees as OutlineRow[] | null) ?? []);
    const read = outlines.get(space.revisionId);
    if (read) return read;
  }
  const { content, parents } = await loadRevision(db, space.revisionId, space.createdAt, { documents: false, git: false });
  const tree = treeOf(space.revisionId, parents, content);
  outlines.set(space.revisionId, tree);
  return tree;
}

/**
 * The trees to read with the site (its row `f`): those of the site spaces the path `segments` (after the site's
 * home, a share-link key included) can lead to, whose revision is not one of `known`'s that this process holds.
 * The section named by the first segment after a share-link key, else the default one (or a site space at the
 * root so named), and there the site space named by the next segment, else the default one; every site space
 * there when the default has a condition or is not set, as the visitor may then get the first they may see.
 * Conditions are the visitor's, checked afterwards in JavaScript: a section or a site space reached otherwise
 * (the default section hidden from the visitor) is read then by `outlineTree`.
 */
export function treesAlong(known: SiteStructure | undefined, segments: string[]): SiteAlong {
  const heldIds = [...new Set((known?.siteSpaces ?? []).map((e) => e.space.revisionId))].filter((id) => held(id) !== undefined || isRevisionCached(id));
  return {
    name: 'outlines',
    column: (first) => `(SELECT json_agg(${outlineJson})
      FROM site_spaces ss JOIN spaces p ON p.id = ss.space_id AND p.deleted_at IS NULL
        LEFT JOIN site_sections sec ON sec.id = ss.section_id
        CROSS JOIN LATERAL (SELECT p.revision_id AS id,
          $${first + 1}::jsonb ->> (CASE WHEN f.visibility = 'share-link' THEN 2 ELSE 0 END) AS a,
          $${first + 1}::jsonb ->> (CASE WHEN f.visibility = 'share-link' THEN 3 ELSE 1 END) AS b) w
        LEFT JOIN site_spaces dflt ON dflt.id = (CASE WHEN ss.section_id IS NULL THEN f.default_site_space_id ELSE sec.default_site_space_id END)
        LEFT JOIN content_revisions r ON r.id = w.id
      WHERE ss.site_id = f.id AND w.id NOT IN (SELECT jsonb_array_elements_text($${first}::jsonb))
        AND ((ss.section_id IS NULL AND (ss.path = w.a OR ss.id = dflt.id OR dflt.id IS NULL OR dflt.condition IS NOT NULL))
          OR (sec.path = w.a AND (ss.path = w.b OR ss.id = dflt.id OR dflt.id IS NULL OR dflt.condition IS NOT NULL))
          OR (sec.id = f.default_section_id AND (ss.path = w.a OR ss.id = dflt.id OR dflt.id IS NULL OR dflt.condition IS NOT NULL))))`,
    params: [JSON.stringify(heldIds), JSON.stringify(segments.slice(0, 4))],
  };
}

/** Keeps the trees the site's statement read along (`treesAlong`). */
export function keepTreesAlong(db: Db, along: unknown): Promise<void> {
  return keep(db, (along as OutlineRow[] | null | undefined) ?? []);
}
