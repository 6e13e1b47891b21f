// A space's revision read in the statement of the space's grant (server/auth/attached-read.ts), so that a
// read of content is one round trip. A revision's content never changes once written and is cached in this
// process by id (revisions.store.ts): the statement sends it only when the process does not hold it, and
// sends the revision's `git` (mutable) when the operation shows it.
import { LRUCache } from 'lru-cache';
import type { SpaceGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import type { AttachedRead } from '../db/attached-select.js';
import { cacheStored, isCached } from './content-documents.js';
import { parseDocumentId } from './document-ids.js';
import { isRevisionCached, type PrefetchedRevision } from './revisions.store.js';

/**
 * The revision `w.id` (the one named, or the space's current one), its row, and the page chunks its row
 * names; the content and chunks only when it is not the one this process said it holds. One row always,
 * `rev_id` null when the revision has no row (the empty revision of a space never written to).
 */
const sql = (first: number) => {
  // `withGit` is 1 or 0: a prepared statement on PGlite takes no booleans.
  const [named, held, withGit] = [`$${first}::text`, `$${first + 1}::text`, `($${first + 2}::int = 1)`];
  return `SELECT w.id AS rev_looked, r.id AS rev_id, r.space_id AS rev_space_id, r.parents::text AS rev_parents, r.type AS rev_type,
      r.created_at AS rev_created_at, ${withGit} AS rev_with_git, CASE WHEN ${withGit} THEN r.git::text END AS rev_git,
      CASE WHEN r.id IS DISTINCT FROM ${held} THEN r.content::text END AS rev_content,
      CASE WHEN r.id IS DISTINCT FROM ${held} THEN (SELECT json_agg(json_build_array(d.hash, d.document::text)) FROM content_documents d
        WHERE d.hash IN (SELECT jsonb_array_elements_text(r.content->'pageChunks'))) END AS rev_chunks
    FROM (SELECT COALESCE(${named}, s.revision_id) AS id) w LEFT JOIN content_revisions r ON r.id = w.id`;
};

/** The revision each space had as its current one when last read here: the one to say is held, if still cached. */
const lastCurrent = new LRUCache<string, string>({ max: 10_000 });

function revisionRead(named: string | null, held: string | undefined, git: boolean): AttachedRead {
  return { name: 'revision', sql, params: [named, held !== undefined && isRevisionCached(held) ? held : null, git ? 1 : 0] };
}

/** The space's current revision, with its `git`. */
export const currentRevisionAttached: AttachedReadOf = (params) => revisionRead(null, lastCurrent.get(params.spaceId), true);

/** The revision `{revisionId}` of the path, with its `git` when `git`. */
export const namedRevisionAttached =
  (git: boolean): AttachedReadOf =>
  (params) =>
    revisionRead(params.revisionId, params.revisionId, git);

/** The revision of the document `{documentId}` names (none for an id that is not a document's), without `git`. */
export const documentRevisionAttached: AttachedReadOf = (params) => {
  const revisionId = parseDocumentId(params.documentId)?.revisionId;
  return revisionId === undefined ? undefined : revisionRead(revisionId, revisionId, false);
};

/** The revision the grant's statement read (undefined when the operation attached none), for revisions.store.ts `loadRevision`. */
export function attachedRevision(grant: SpaceGrant): PrefetchedRevision | undefined {
  const raw = grant.attached;
  if (!raw || typeof raw.rev_looked !== 'string') return undefined;
  if (raw.rev_looked === grant.row.revisionId) lastCurrent.set(grant.row.id, raw.rev_looked);
  for (const [hash, json] of (raw.rev_chunks as [string, string][] | null) ?? []) if (!isCached(hash)) cacheStored(hash, json);
  const row =
    raw.rev_id !== null && typeof raw.rev_content === 'string'
      ? { space_id: raw.rev_space_id, parents: raw.rev_parents, type: raw.rev_type, created_at: raw.rev_created_at, content: raw.rev_content }
      : undefined;
  const git = typeof raw.rev_git === 'string' ? (JSON.parse(raw.rev_git) as unknown) : undefined;
  return { id: raw.rev_looked, exists: raw.rev_id !== null, row, withGit: raw.rev_with_git === true, git };
}
