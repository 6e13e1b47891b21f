// A space's revision (its current one, one named, or the one a select answers: a change request's) read in
// the statement of the space's grant (server/auth/attached-read.ts), so that a read of content is one round
// trip. A revision's content never changes once written and is cached in this process by id
// (revisions.store.ts): the statement sends it only when the process does not hold it, and sends the
// revision's `git` (mutable) when the operation shows it.
import { LRUCache } from 'lru-cache';
import type { SpaceGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import type { AttachedRead, embedded } from '../db/attached-select.js';
import { cacheStored, isCached } from './content-documents.js';
import { parseDocumentId } from './document-ids.js';
import { isRevisionCached, type PrefetchedRevision } from './revisions.store.js';

/**
 * The revision `w.id` (the SQL expression `id`), its row, and the page chunks its row names; the content and
 * chunks only when it is not the one this process said it holds (`held`). One row always, `rev_id` null when
 * the revision has no row (the empty revision of a space never written to).
 */
const revisionSql = (id: string, held: string, withGit: string) =>
  `SELECT w.id AS rev_looked, r.id AS rev_id, r.space_id AS rev_space_id, r.parents::text AS rev_parents, r.type AS rev_type,
      r.created_at AS rev_created_at, ${withGit} AS rev_with_git, CASE WHEN ${withGit} THEN r.git::text END AS rev_git,
      CASE WHEN r.id IS DISTINCT FROM ${held} THEN r.content::text END AS rev_content,
      CASE WHEN r.id IS DISTINCT FROM ${held} THEN (SELECT json_agg(json_build_array(d.hash, d.document::text)) FROM content_documents d
        WHERE d.hash IN (SELECT jsonb_array_elements_text(r.content->'pageChunks'))) END AS rev_chunks
    FROM (SELECT ${id} AS id) w LEFT JOIN content_revisions r ON r.id = w.id`;

// `withGit` is 1 or 0: a prepared statement on PGlite takes no booleans.
const gitParam = (n: number) => `($${n}::int = 1)`;

/** The revision named (or, when null, the space's current one). */
const sql = (first: number) => revisionSql(`COALESCE($${first}::text, s.revision_id)`, `$${first + 1}::text`, gitParam(first + 2));

/** The revision each space had as its current one when last read here: the one to say is held, if still cached. */
const lastCurrent = new LRUCache<string, string>({ max: 10_000 });

/** The revision to say is held: the one last read, while this process still holds it. */
const heldParam = (held: string | undefined) => (held !== undefined && isRevisionCached(held) ? held : null);

function revisionRead(named: string | null, held: string | undefined, git: boolean): AttachedRead {
  return { name: 'revision', sql, params: [named, heldParam(held), git ? 1 : 0] };
}

/**
 * The revision whose id the one-column select `id` answers (a change request's), read as `name`, with its
 * `git` when `git`; `held`: the revision this process last read for it. Read back with `attachedRevision`.
 */
export function selectedRevisionRead(name: string, id: ReturnType<typeof embedded>, held: string | undefined, git: boolean): AttachedRead {
  const n = id.params.length;
  return {
    name: `${name}_${id.hash}`,
    sql: (first) => revisionSql(`(${id.sql(first)})`, `$${first + n}::text`, gitParam(first + n + 1)),
    params: [...id.params, heldParam(held), git ? 1 : 0],
  };
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
