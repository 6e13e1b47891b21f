// A space's revision (its current one, one named, or a change request's) read in the statement of the
// space's grant (server/auth/attached-read.ts), so that a read of content is one round trip. A revision's content never changes once written and is cached in this
// process by id (revisions.store.ts): the statement sends it only when the process does not hold it, and
// sends the revision's `git` (mutable) when the operation shows it.
import { LRUCache } from 'lru-cache';
import type { SpaceGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { embedded, type AttachedRead, type Select } from '../db/attached-select.js';
import { cacheStoredPairs, storedPairsSql } from './content-documents.js';
import { parseDocumentId } from './document-ids.js';
import { pageDocumentsColumn, pageDocumentsParamCount, pageDocumentsParams, type ShownDocuments } from './page-documents-attached.js';
import { tokenVisitor } from './reader-content.js';
import { isRevisionCached, type PrefetchedRevision } from './revisions.store.js';

/**
 * The revision `w.id` (the SQL `id` names it), its row, and the page chunks its row names; the content and
 * chunks only when it is not the one this process said it holds; with `documents`, the Documents the read
 * shows (page-documents-attached.ts). One row always, `rev_id` null when the revision has no row
 * (the empty revision of a space never written to), `rev_looked` null when `id` names none. Its parameters:
 * the revision held, whether to send `git`, with `documents` pageDocumentsParams, then `id`'s.
 */
const revisionSql = (id: (first: number) => string, documents?: ShownDocuments['which']) => (first: number) => {
  // `withGit` is 1 or 0: a prepared statement on PGlite takes no booleans.
  const [held, withGit] = [`$${first}::text`, `($${first + 1}::int = 1)`];
  const pageDocuments = documents ? `, ${pageDocumentsColumn(documents, held, first + 2)}` : '';
  return `SELECT w.id AS rev_looked, r.id AS rev_id, r.space_id AS rev_space_id, r.parents::text AS rev_parents, r.type AS rev_type,
      r.created_at AS rev_created_at, ${withGit} AS rev_with_git, CASE WHEN ${withGit} THEN r.git::text END AS rev_git,
      CASE WHEN r.id IS DISTINCT FROM ${held} THEN r.content::text END AS rev_content,
      CASE WHEN r.id IS DISTINCT FROM ${held} THEN ${storedPairsSql(`SELECT jsonb_array_elements_text(r.content->'pageChunks')`)} END AS rev_chunks${pageDocuments}
    FROM (SELECT ${id(first + 2 + (documents ? pageDocumentsParamCount(documents) : 0))} AS id) w LEFT JOIN content_revisions r ON r.id = w.id`;
};

/** The revision read's parameters before its id's: `held` (when cached), `git`, and the Documents' when `shown`. */
function leadingParams(held: string | undefined, git: boolean, shown: ShownDocuments | undefined): unknown[] {
  const cached = held !== undefined && isRevisionCached(held) ? held : null;
  return [cached, git ? 1 : 0, ...(shown ? pageDocumentsParams(cached, shown) : [])];
}

const namedOrCurrent = (first: number) => `COALESCE($${first}::text, s.revision_id)`;
/** The revision named by a parameter, or the space's current one when it is null; with the Documents a read shows. */
const namedOrCurrentSql = {
  none: revisionSql(namedOrCurrent),
  page: revisionSql(namedOrCurrent, 'page'),
  subtree: revisionSql(namedOrCurrent, 'subtree'),
  reader: revisionSql(namedOrCurrent, 'reader'),
};

/** The revision each space had as its current one when last read here: the one to say is held, if still cached. */
const lastCurrent = new LRUCache<string, string>({ max: 10_000 });

/** The revision the space `spaceId` had as its current one when last read here (it may have moved on since). */
export const lastCurrentRevision = (spaceId: string): string | undefined => lastCurrent.get(spaceId);

/** The revision a change request (keyed by `changeRequestKey`) had when last read here, likewise. */
const lastOfChangeRequest = new LRUCache<string, string>({ max: 10_000 });

function revisionRead(named: string | null, held: string | undefined, git: boolean, shown?: ShownDocuments): AttachedRead {
  const documents = shown?.which ?? 'none';
  return { name: `revision_${documents}`, sql: namedOrCurrentSql[documents], params: [...leadingParams(held, git, shown), named] };
}

/** The space's current revision, with its `git`; for a site token's reader, the Documents its view of the revision reads (space-content.ts `readerView`). */
export const currentRevisionAttached: AttachedReadOf = (params, ctx) =>
  revisionRead(null, lastCurrent.get(params.spaceId), true, tokenVisitor(ctx) && { which: 'reader' });

/**
 * The space's current revision, with its `git`, and the Documents of the page `{pageId}` and of every page
 * under it (getPageById shows the subtree); a site token's reader's, as currentRevisionAttached reads them.
 */
export const currentPageAttached: AttachedReadOf = (params, ctx) =>
  revisionRead(null, lastCurrent.get(params.spaceId), true, tokenVisitor(ctx) ? { which: 'reader' } : { pageId: params.pageId, which: 'subtree' });

/** The current revision of the space `spaceId`, without its `git`: its content only. */
export const currentContentAttached = (spaceId: string): AttachedRead => revisionRead(null, lastCurrent.get(spaceId), false);

/** The revision `{revisionId}` of the path, with its `git` when `git`, and the Documents of the page `{pageId}` a read shows (`which`). */
export const namedRevisionAttached =
  (git: boolean, which?: 'page' | 'subtree'): AttachedReadOf =>
  (params) =>
    revisionRead(params.revisionId, params.revisionId, git, which && { pageId: params.pageId, which });

/** The revision of the document `{documentId}` names (none for an id that is not a document's), without `git`. */
export const documentRevisionAttached: AttachedReadOf = (params) => {
  const revisionId = parseDocumentId(params.documentId)?.revisionId;
  return revisionId === undefined ? undefined : revisionRead(revisionId, revisionId, false);
};

/** What names a change request of a space as a path does, for `lastOfChangeRequest`. */
export const changeRequestKey = (spaceId: string, ref: string) => `${spaceId}\u0000${ref}`;

/**
 * The revision of the change request `ref` of the space, with its `git`: `changeRequest` selects the change
 * request's row, whose `revision_id` it is (none when it is not one of the space: `rev_looked` is then null).
 */
export function changeRequestRevisionAttached(spaceId: string, ref: string, changeRequest: Select, shown?: ShownDocuments): AttachedRead {
  const row = embedded(changeRequest);
  return {
    name: `change_request_revision_${shown?.which ?? 'none'}_${row.hash}`,
    sql: revisionSql((first) => `(SELECT c.revision_id FROM (${row.sql(first)}) c)`, shown?.which),
    params: [...leadingParams(lastOfChangeRequest.get(changeRequestKey(spaceId, ref)), true, shown), ...row.params],
  };
}

/**
 * The revision the grant's statement read (undefined when the operation attached none), for revisions.store.ts
 * `loadRevision`; `changeRequest` (changeRequestKey) when it is a change request's.
 */
export function attachedRevision(grant: SpaceGrant, changeRequest?: string): PrefetchedRevision | undefined {
  const raw = grant.attached;
  if (!raw || typeof raw.rev_looked !== 'string') return undefined;
  if (raw.rev_looked === grant.row.revisionId) lastCurrent.set(grant.row.id, raw.rev_looked);
  if (changeRequest !== undefined) lastOfChangeRequest.set(changeRequest, raw.rev_looked);
  // The chunks of its page list, and the Documents of the page read, cached as content-documents.ts caches what it reads.
  cacheStoredPairs(raw.rev_chunks as [string, string][] | null);
  cacheStoredPairs(raw.rev_documents as [string, string][] | null);
  const row =
    raw.rev_id !== null && typeof raw.rev_content === 'string'
      ? { space_id: raw.rev_space_id, parents: raw.rev_parents, type: raw.rev_type, created_at: raw.rev_created_at, content: raw.rev_content }
      : undefined;
  const git = typeof raw.rev_git === 'string' ? (JSON.parse(raw.rev_git) as unknown) : undefined;
  return { id: raw.rev_looked, exists: raw.rev_id !== null, row, withGit: raw.rev_with_git === true, git };
}
