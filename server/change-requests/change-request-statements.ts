// The statements of a change request's write cycle (open it, write its content, merge it), as plain SQL on
// the driver (server/db/sql-text.ts): each request reads what it locks in one statement and writes in one,
// where Drizzle's builders took two to three times as many round trips and a fifth of the time building
// them (bench/results/write-path.md). The rules (locked space, closed change request, merge rules) and the
// content merge stay in change-requests.store.ts; these only move rows.
import type { SpaceRow } from '../auth/access.js';
import { tableRow, type Db } from '../db/client.js';
import { changeRequests, spaces, users } from '../db/schema/index.js';
import { columnsAs, rawSql, runSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import type { RevisionContent } from '../content/revision-content.js';
import { loadContents } from '../content/revisions.store.js';
import type { ChangeRequestRow } from './change-request-view.js';

type UserRow = typeof users.$inferSelect;

/** A change request as written, with what its API form needs: its creator and its open comments. */
export interface WrittenChangeRequest {
  row: ChangeRequestRow;
  creator: UserRow;
  openComments: number;
}

const creatorColumns = () => columnsAs(users, 'u', 'u_');

function written(raw: Record<string, unknown>, openComments: number): WrittenChangeRequest {
  return { row: tableRow(changeRequests, raw), creator: tableRow(users, raw, 'u_'), openComments };
}

export interface NewChangeRequestRow {
  id: string;
  subject: string | null;
  description: unknown;
  clusterId: string | null;
  createdBy: string;
  now: Date;
}

/**
 * Opens a change request on the space's current revision with the next number, in one statement: the
 * space row locked, the number counted, the row inserted and returned with its creator, the space's
 * revision and the merge rules that `permissions.merge` reads. Undefined when the space is gone, or when
 * another change request took the number meanwhile: the count runs on the statement's snapshot, taken
 * before the lock was granted, so a creation that waited for the lock can count one short. The unique
 * (space, number) index turns that into no row instead of a duplicate; the caller then locks first and
 * runs this again, which counts after the lock.
 */
export async function insertChangeRequest(db: Db, spaceId: string, given: NewChangeRequestRow) {
  const [raw] = await runSql(
    db,
    sqlText`WITH s AS (SELECT id, organization_id, revision_id, edit_mode, merge_rules FROM spaces WHERE id = ${spaceId}::text FOR NO KEY UPDATE),
    c AS (
      INSERT INTO change_requests (id, organization_id, space_id, number, status, subject, description, conversations_issues_cluster_id,
        created_by, contributors, revision_id, revision_initial, created_at, updated_at)
      SELECT ${given.id}::text, s.organization_id, s.id, coalesce((SELECT max(x.number) FROM change_requests x WHERE x.space_id = s.id), 0) + 1,
        'open', ${given.subject}::text, ${given.description === undefined || given.description === null ? null : JSON.stringify(given.description)}::jsonb,
        ${given.clusterId}::text, ${given.createdBy}::text, '[]'::jsonb, s.revision_id, s.revision_id, ${given.now}::timestamptz, ${given.now}::timestamptz
      FROM s
      ON CONFLICT (space_id, number) DO NOTHING
      RETURNING *
    )
    SELECT c.*, ${creatorColumns()}, s.revision_id AS space_revision_id, s.edit_mode AS space_edit_mode, s.merge_rules AS space_merge_rules,
      o.merge_rules AS organization_rules
    FROM c JOIN s ON s.id = c.space_id JOIN users u ON u.id = c.created_by JOIN organizations o ON o.id = s.organization_id`,
  );
  if (!raw) return undefined;
  return {
    // A change request just opened has no comments.
    ...written(raw, 0),
    space: { revisionId: raw.space_revision_id as string, editMode: raw.space_edit_mode as string, mergeRules: raw.space_merge_rules },
    organizationRules: raw.organization_rules,
  };
}

/** The contents a write of a change request starts from; `base` and `space` only for a merge whose space moved on. */
export interface LockedChangeRequest {
  space: SpaceRow;
  cr: ChangeRequestRow;
  organizationRules: unknown;
  /** The change request's content (its revision), its pages without their Documents (`hydratePages`). */
  content: RevisionContent;
  /** For a merge, when the space moved since the change request's base: the base's and the space's contents. */
  sides?: { base: RevisionContent; space: RevisionContent };
}

// The base a change request's changes are measured from (change-request-view.ts `baseRevision`), in SQL.
const BASE = 'coalesce(c.revision_merged_ancestor, c.revision_initial)';

/**
 * Locks the space and its change request `ref` (an id, or a number within the space) for the rest of the
 * transaction and reads them with the organization's merge rules in one statement, then the change
 * request's content (revisions.store.ts `loadContents`: cached by revision id, so usually no second
 * statement); `forMerge` also reads the base's and the space's contents when the space moved since the
 * base (a three-way merge needs them). The pages come without their Documents: the caller loads those it
 * changes or merges. Undefined when there is no such change request in the space. A revision with no row
 * is the empty first revision of a space.
 */
export async function lockChangeRequest(tx: Db, spaceId: string, ref: string, forMerge: boolean): Promise<LockedChangeRequest | undefined> {
  const byRef = /^\d{1,9}$/.test(ref) ? sqlText`c.number = ${Number(ref)}::int` : sqlText`c.id = ${ref}::text`;
  const [raw] = await runSql(
    tx,
    sqlText`SELECT ${columnsAs(spaces, 's', 's_')}, ${columnsAs(changeRequests, 'c', 'c_')}, o.merge_rules AS organization_rules, ${rawSql(BASE)} AS base_revision
    FROM spaces s
    JOIN change_requests c ON c.space_id = s.id AND ${byRef}
    JOIN organizations o ON o.id = s.organization_id
    WHERE s.id = ${spaceId}::text
    FOR NO KEY UPDATE OF s, c`,
  );
  if (!raw) return undefined;
  const space = tableRow(spaces, raw, 's_');
  const cr = tableRow(changeRequests, raw, 'c_');
  const base = raw.base_revision as string;
  const outdated = forMerge && base !== space.revisionId;
  const contents = await loadContents(tx, outdated ? [cr.revisionId, base, space.revisionId] : [cr.revisionId]);
  return {
    space,
    cr,
    organizationRules: raw.organization_rules,
    content: contents.get(cr.revisionId)!,
    ...(outdated && { sides: { base: contents.get(base)!, space: contents.get(space.revisionId)! } }),
  };
}

/**
 * Writes the change request's new revision (`insertRevision`, from revisions.store.ts `insertRevisionSql`)
 * and moves the change request to it, the caller among its contributors, in one statement; returns the
 * change request as written.
 */
export async function moveChangeRequest(tx: Db, crId: string, revision: { id: string; ctes: SqlFragment }, callerId: string, now: Date): Promise<WrittenChangeRequest> {
  const contributor = JSON.stringify([callerId]);
  const [raw] = await runSql(
    tx,
    sqlText`WITH ${revision.ctes},
    c AS (
      UPDATE change_requests SET revision_id = ${revision.id}::text, updated_at = ${now}::timestamptz,
        contributors = CASE WHEN contributors @> ${contributor}::jsonb THEN contributors ELSE contributors || ${contributor}::jsonb END
      WHERE id = ${crId}::text
      RETURNING *
    )
    SELECT c.*, ${creatorColumns()}, (SELECT count(*)::int FROM comments x WHERE x.change_request_id = c.id AND x.status = 'open') AS open_comments
    FROM c JOIN users u ON u.id = c.created_by`,
  );
  return written(raw, Number(raw.open_comments));
}

/**
 * Merges in one statement: the merge revision written, the space moved to it, the change request marked
 * merged, plus the writes of the `space content updated` subscribers (search queues its catch-up); answers
 * the rows of their reads (the integrations to tell).
 */
export async function writeMerge(
  tx: Db,
  ids: { spaceId: string; crId: string },
  revision: { id: string; ctes: SqlFragment },
  now: Date,
  event: { ctes: SqlFragment; select: SqlFragment },
): Promise<Record<string, unknown>[]> {
  return runSql(
    tx,
    sqlText`WITH ${revision.ctes},
    s AS (UPDATE spaces SET revision_id = ${revision.id}::text, updated_at = ${now}::timestamptz WHERE id = ${ids.spaceId}::text),
    c AS (UPDATE change_requests SET status = 'merged', revision_merged = ${revision.id}::text, updated_at = ${now}::timestamptz WHERE id = ${ids.crId}::text)${event.ctes}
    ${event.select}`,
  );
}
