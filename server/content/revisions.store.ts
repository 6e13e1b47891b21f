// Reading and writing revisions. A space created before it had content points at a revision id with no
// row yet: reading it gives the empty revision, and the first write makes it a parent like any other.
import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { contentRevisions } from '../db/schema/index.js';
import { sqlText } from '../db/sql-text.js';
import { newId } from '../ids.js';
import { emptyContent, type RevisionContent } from './revision-content.js';

/**
 * Git metadata of a revision, written by Git Sync (server/git-sync/): the commit it was imported from or
 * exported to, and where each of its pages and files is in that commit (by page or file id). Mutable
 * metadata, unlike the content: an export sets it on the revision it pushed.
 */
export interface RevisionGit {
  commit?: { oid: string; message: string; createdByGitBook: boolean; url?: string; ref?: string };
  blobs: Record<string, { oid: string; path: string }>;
}

export interface StoredRevision {
  id: string;
  parents: string[];
  type: 'edits' | 'merge' | 'rollback' | 'update' | 'computed';
  createdAt: Date;
  content: RevisionContent;
  git?: RevisionGit;
}

/** The revision `id`; the empty revision (created at `fallbackCreatedAt`) when it has no row yet. */
export async function loadRevision(db: Db, id: string, fallbackCreatedAt: Date): Promise<StoredRevision> {
  const [row] = await db.select().from(contentRevisions).where(eq(contentRevisions.id, id));
  if (!row) return { id, parents: [], type: 'edits', createdAt: fallbackCreatedAt, content: emptyContent() };
  return {
    id: row.id,
    parents: row.parents,
    type: row.type as StoredRevision['type'],
    createdAt: row.createdAt,
    content: row.content as RevisionContent,
    ...(row.git ? { git: row.git as RevisionGit } : {}),
  };
}

/**
 * The INSERT of a new revision of the space, for a statement that moves something to it in the same round
 * trip (a change request's write, a merge); `revision.id` is the new revision's.
 */
export function insertRevisionSql(spaceId: string, revision: { parents: string[]; type: StoredRevision['type']; content: RevisionContent }, now: Date) {
  const id = newId('rev', now.getTime());
  return {
    id,
    insert: sqlText`INSERT INTO content_revisions (id, space_id, parents, type, content, created_at)
      VALUES (${id}::text, ${spaceId}::text, ${JSON.stringify(revision.parents)}::jsonb, ${revision.type}::text, ${JSON.stringify(revision.content)}::jsonb, ${now}::timestamptz)`,
  };
}

/** Writes a new immutable revision of the space and returns it. */
export async function insertRevision(
  tx: Ctx,
  spaceId: string,
  revision: { parents: string[]; type: StoredRevision['type']; content: RevisionContent },
): Promise<StoredRevision> {
  const now = tx.now();
  const id = newId('rev', now.getTime());
  await tx.db.insert(contentRevisions).values({ id, spaceId, parents: revision.parents, type: revision.type, content: revision.content, createdAt: now });
  return { id, createdAt: now, ...revision };
}
