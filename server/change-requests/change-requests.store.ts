// Change requests: creation (numbered per space), reads by id or number, settings, and the moves of
// their content (batch edits, update from the space, merge into the space). Every write locks what its
// rules read first: the space row (its current revision, the next number), then the change request.
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { changeRequestOperations } from '../../contract/change-requests.js';
import type { SpaceGrant, SpaceRow } from '../auth/access.js';
import { rowsOf } from '../db/attached-select.js';
import { applyChanges } from '../content/apply-changes.js';
import { prepareFiles, saveFiles } from '../content/file-bytes.js';
import { refuseLocked } from '../content/locked.js';
import { ownPages } from '../content/content-documents.js';
import { mergeStoredContents } from '../content/merge-revisions.js';
import type { RevisionContent } from '../content/revision-content.js';
import { insertRevision, insertRevisionSql, loadContents, loadRevision } from '../content/revisions.store.js';
import type { Ctx } from '../context.js';
import { changeRequests, contentRevisions, issueClusters, organizations, spaces, users } from '../db/schema/index.js';
import { Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { baseRevision, openCommentsField, toChangeRequest, type ChangeRequest, type ChangeRequestRow } from './change-request-view.js';
import { lockChangeRequest, insertChangeRequest, moveChangeRequest, writeMerge } from './change-request-statements.js';
import { reviewFactsOf, reviewsField } from './change-requests.list.js';
import { mayMerge, mayMergeListed, requireMergeRules } from './merge-check.js';
import { inWriterStatement } from '../events/domain-events.js';
import { pageConditionClaims } from '../sites/page-condition-claims.js';
import { assertStorableDocument } from '../content/document-check.js';

type Ops = typeof changeRequestOperations;
type UpdateBody = z.output<Ops['updateChangeRequestById']['body']>;
type ContentBody = z.output<Ops['updateChangeRequestContent']['body']>;

/** The condition naming the change request `ref` of the space: an id, or a number within the space. */
export function refCondition(spaceId: string, ref: string) {
  const byRef = /^\d{1,9}$/.test(ref) ? eq(changeRequests.number, Number(ref)) : eq(changeRequests.id, ref);
  return and(eq(changeRequests.spaceId, spaceId), byRef);
}

/** The answer to a change request `ref` (named by `field`) that is not one of the space. */
export function changeRequestNotFound(ref: string, field = 'path.changeRequestId'): NotFound {
  return new NotFound(`Change request ${ref} (${field}) not found in this space`);
}

/** The change request `ref` (an id, or a number within the space) of the space; throws NotFound. */
export async function findChangeRequest(ctx: Ctx, spaceId: string, ref: string, lock = false, field = 'path.changeRequestId'): Promise<ChangeRequestRow> {
  const query = changeRequestSelect(ctx, spaceId, ref);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw changeRequestNotFound(ref, field);
  return row;
}

/** The select of the row of the change request `ref` of the space (none when it is not one of the space). */
export function changeRequestSelect(ctx: Ctx, spaceId: string, ref: string) {
  return ctx.db.select().from(changeRequests).where(refCondition(spaceId, ref));
}

/** The select of the id of the change request `ref` of the space (none when it is not one of the space). */
export function changeRequestIdSelect(ctx: Ctx, spaceId: string, ref: string) {
  return ctx.db.select({ id: changeRequests.id }).from(changeRequests).where(refCondition(spaceId, ref));
}

/**
 * The select of the change request `ref` of the space with what its API form shows besides its row (its
 * creator, its open comments) and what `permissions.merge` needs (the organization's rules, the reviews),
 * as getChangeRequest reads it and getChangeRequestById attaches it (attached-reads.ts).
 */
export function changeRequestViewSelect(ctx: Ctx, spaceId: string, ref: string) {
  return ctx.db
    .select({ cr: changeRequests, creator: users, comments: openCommentsField(), organizationRules: organizations.mergeRules, reviews: reviewsField() })
    .from(changeRequests)
    .innerJoin(users, eq(users.id, changeRequests.createdBy))
    .innerJoin(spaces, eq(spaces.id, changeRequests.spaceId))
    .innerJoin(organizations, eq(organizations.id, spaces.organizationId))
    .where(refCondition(spaceId, ref));
}

/** The change request `ref` of the grant's space in its API form (changeRequestViewSelect); throws NotFound. */
export async function getChangeRequest(ctx: Ctx, grant: SpaceGrant, ref: string): Promise<ChangeRequest> {
  const [found] = await rowsOf(grant.attached, 'change_request', changeRequestViewSelect(ctx, grant.row.id, ref));
  if (!found) throw changeRequestNotFound(ref);
  // The grant's space row is the space as it is now, read in the same statement.
  const mayMergeNow = mayMergeListed(ctx, grant.row, found.cr, grant.role, found.organizationRules, reviewFactsOf(found.reviews));
  return toChangeRequest(ctx, found.cr, found.creator, grant.row.revisionId, found.comments, mayMergeNow);
}

/**
 * The API form of a change request, with its creator, its space and its open comments read in one query;
 * with the caller's `grant` on the space it also tells whether the caller may merge it now.
 */
export async function viewChangeRequest(ctx: Ctx, row: ChangeRequestRow, grant?: SpaceGrant): Promise<ChangeRequest> {
  const [found] = await ctx.db
    .select({ creator: users, space: spaces, comments: openCommentsField(), organizationRules: organizations.mergeRules })
    .from(changeRequests)
    .innerJoin(users, eq(users.id, changeRequests.createdBy))
    .innerJoin(spaces, eq(spaces.id, changeRequests.spaceId))
    .innerJoin(organizations, eq(organizations.id, spaces.organizationId))
    .where(eq(changeRequests.id, row.id));
  const mayMergeNow = grant && (await mayMerge(ctx, found.space, row, grant.role, found.organizationRules));
  return toChangeRequest(ctx, row, found.creator, found.space.revisionId, found.comments, mayMergeNow);
}

/** Locks the space row for the rest of the transaction and returns it fresh (current revision, edit mode). */
async function lockSpace(tx: Ctx, spaceId: string): Promise<SpaceRow> {
  const [row] = await tx.db.select().from(spaces).where(eq(spaces.id, spaceId)).for('no key update');
  if (!row) throw new NotFound(`Space ${spaceId} not found`);
  return row;
}

/** What a change request is opened with. */
export interface NewChangeRequest {
  subject?: string;
  description?: unknown;
  conversationsIssuesCluster?: string;
}

/** The cluster `id` of the organization; throws NotFound naming the field otherwise. */
async function requireCluster(ctx: Ctx, organizationId: string, id: string): Promise<string> {
  const [row] = await ctx.db
    .select({ id: issueClusters.id })
    .from(issueClusters)
    .where(and(eq(issueClusters.id, id), eq(issueClusters.organizationId, organizationId)));
  if (!row) throw new NotFound(`body.conversationsIssuesCluster: cluster ${id} not found in this organization`);
  return row.id;
}

/**
 * Opens a change request from the space's current revision, with the next number of the space: one
 * statement (change-request-statements.ts), or, when a concurrent creation took its number, the same
 * statement again after the space's lock is held.
 */
export async function createChangeRequest(ctx: Ctx, grant: SpaceGrant, given: NewChangeRequest): Promise<ChangeRequest> {
  const cluster = given.conversationsIssuesCluster === undefined ? null : await requireCluster(ctx, grant.row.organizationId, given.conversationsIssuesCluster);
  if (given.description) assertStorableDocument(given.description as { nodes: unknown[] }, 'body.description');
  const now = ctx.now();
  const row = { id: newId('crq', now.getTime()), subject: given.subject ?? null, description: given.description ?? null, clusterId: cluster, createdBy: ctx.caller.userId, now };
  const created =
    (await insertChangeRequest(ctx.db, grant.row.id, row)) ??
    (await ctx.transaction(async (tx) => {
      await lockSpace(tx, grant.row.id);
      return insertChangeRequest(tx.db, grant.row.id, row);
    }));
  if (!created) throw new NotFound(`Space ${grant.row.id} not found`);
  // Just opened, it has no reviews; what else `permissions.merge` needs was read with it.
  const mayMergeNow = mayMergeListed(ctx, created.space, created.row, grant.role, created.organizationRules, []);
  return toChangeRequest(ctx, created.row, created.creator, created.space.revisionId, created.openComments, mayMergeNow);
}

/** Changes the subject, description or status; a merged change request keeps its status (409). */
export async function updateChangeRequest(ctx: Ctx, grant: SpaceGrant, ref: string, body: UpdateBody): Promise<ChangeRequest> {
  if (body.description) assertStorableDocument(body.description, 'body.description');
  const row = await ctx.transaction(async (tx) => {
    const current = await findChangeRequest(tx, grant.row.id, ref, true);
    if (body.status !== undefined && current.status === 'merged') {
      throw new Conflict(`body.status: change request ${current.number} is merged; its status can no longer change`);
    }
    const [updated] = await tx.db
      .update(changeRequests)
      .set({
        ...(body.subject !== undefined && { subject: body.subject }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.status !== undefined && { status: body.status }),
        updatedAt: tx.now(),
      })
      .where(eq(changeRequests.id, current.id))
      .returning();
    return updated;
  });
  return viewChangeRequest(ctx, row, grant);
}

function refuseClosed(row: ChangeRequestRow, action: string): void {
  if (row.status === 'merged' || row.status === 'archived') {
    throw new Conflict(`Change request ${row.number} is ${row.status}: it cannot be ${action}`);
  }
}

/** A revision of the space, or undefined when the id is not one of its revisions. */
async function spaceRevision(tx: Ctx, space: SpaceRow, id: string | undefined) {
  if (id === undefined) return undefined;
  if (id === space.revisionId) return (await loadRevision(tx.db, id, space.createdAt)).content;
  const [row] = await tx.db.select({ id: contentRevisions.id }).from(contentRevisions).where(and(eq(contentRevisions.id, id), eq(contentRevisions.spaceId, space.id)));
  if (row) return (await loadRevision(tx.db, id, space.createdAt)).content;
  // Revisions that never got a row are the empty first revisions of the change requests' bases.
  const [base] = await tx.db.select({ id: changeRequests.id }).from(changeRequests).where(and(eq(changeRequests.spaceId, space.id), eq(changeRequests.revisionInitial, id)));
  return base ? (await loadRevision(tx.db, id, space.createdAt)).content : undefined;
}

/**
 * Gives the batch its own copies of the pages its changes name (`page`), with their Documents: the only
 * existing pages a batch changes in place (apply-changes.ts), and an edit or a block revert reads their
 * current blocks. The other pages stay shared with the cache (revisions.store.ts `loadContents`), keep their
 * Document's hash and are written as they are.
 */
async function ownNamedPages(tx: Ctx, content: RevisionContent, changes: ContentBody['changes']): Promise<void> {
  const named = new Set(changes.flatMap((change) => ('page' in change && typeof change.page === 'string' ? [change.page] : [])));
  if (named.size > 0) await ownPages(tx.db, [content], named);
}

/** The space and its change request `ref`, locked and read with its content (change-request-statements.ts); throws NotFound. */
async function lockForWrite(tx: Ctx, spaceId: string, ref: string, forMerge: boolean) {
  const locked = await lockChangeRequest(tx.db, spaceId, ref, forMerge);
  if (!locked) throw new NotFound(`Change request ${ref} (path.changeRequestId) not found in this space`);
  return locked;
}

/** Applies a batch of changes as one new revision of the change request; all or nothing. */
export async function updateChangeRequestContent(ctx: Ctx, grant: SpaceGrant, ref: string, body: ContentBody) {
  // Files are decoded and fetched before the transaction, so no slow fetch holds the space's lock.
  const files = await prepareFiles(ctx.db, body.changes);
  return ctx.transaction(async (tx) => {
    const { space, cr, content, organizationRules } = await lockForWrite(tx, grant.row.id, ref, false);
    refuseLocked(space);
    refuseClosed(cr, 'edited');
    const setsCondition = body.changes.some((change) => 'condition' in change && change.condition);
    await ownNamedPages(tx, content, body.changes);
    const applied = await applyChanges(content, body.changes, {
      now: tx.now(),
      revision: (id) => spaceRevision(tx, space, id),
      files,
      claimNames: setsCondition ? await pageConditionClaims(tx, space.id) : undefined,
    }, baseRevision(cr));
    const now = tx.now();
    await saveFiles(tx, space.id, applied.fileBytes);
    const revision = insertRevisionSql(space.id, { parents: [cr.revisionId], type: 'edits', content: applied.content }, now);
    const updated = await moveChangeRequest(tx.db, cr.id, revision, tx.caller.userId, now);
    const mayMergeNow = await mayMerge(tx, space, updated.row, grant.role, organizationRules);
    return {
      changeRequest: toChangeRequest(tx, updated.row, updated.creator, space.revisionId, updated.openComments, mayMergeNow),
      results: applied.results,
      reusableResults: applied.reusableResults,
      insertedFiles: applied.insertedFiles,
    };
  });
}

/**
 * Merges the change request into the space: a new space revision, which becomes `revisionMerged`, the
 * search catch-up queued and `space content updated` published, its subscribers' reads (integrations: who
 * hears of it) run by the statement that moves the space.
 */
export async function mergeChangeRequest(ctx: Ctx, grant: SpaceGrant, ref: string): Promise<{ revision: string; result: 'merge' }> {
  return ctx.transaction(async (tx) => {
    const { space, cr, content: ours, organizationRules, sides } = await lockForWrite(tx, grant.row.id, ref, true);
    refuseLocked(space);
    refuseClosed(cr, 'merged');
    await requireMergeRules(tx, space, cr, organizationRules);
    const content = sides ? await mergeStoredContents(tx.db, sides.base, sides.space, ours) : ours;
    const now = tx.now();
    const revision = insertRevisionSql(space.id, { parents: [space.revisionId, cr.revisionId], type: 'merge', content }, now);
    const updated = inWriterStatement('space content updated', { spaceId: space.id, revisionId: revision.id, previousRevisionId: space.revisionId }, now);
    const result = await writeMerge(tx.db, { spaceId: space.id, crId: cr.id }, revision, now, updated);
    await updated.publish(tx, result);
    return { revision: revision.id, result: 'merge' as const };
  });
}

/** Brings the change request up to date with the space's current content (a new `update` revision). */
export async function bringUpToDate(ctx: Ctx, grant: SpaceGrant, ref: string): Promise<{ revision: string; result: 'update' }> {
  return ctx.transaction(async (tx) => {
    const space = await lockSpace(tx, grant.row.id);
    refuseLocked(space);
    const cr = await findChangeRequest(tx, space.id, ref, true);
    if (cr.status === 'merged') throw new Conflict(`Change request ${cr.number} is merged: it cannot be updated`);
    const base = baseRevision(cr);
    if (base === space.revisionId) return { revision: cr.revisionId, result: 'update' as const };
    const contents = await loadContents(tx.db, [base, space.revisionId, cr.revisionId]);
    const content = await mergeStoredContents(tx.db, contents.get(base)!, contents.get(space.revisionId)!, contents.get(cr.revisionId)!);
    const revision = await insertRevision(tx, space.id, { parents: [cr.revisionId, space.revisionId], type: 'update', content });
    await tx.db
      .update(changeRequests)
      .set({ revisionId: revision.id, revisionMergedAncestor: space.revisionId, updatedAt: tx.now() })
      .where(eq(changeRequests.id, cr.id));
    return { revision: revision.id, result: 'update' as const };
  });
}
