// A space's place in the content tree: moving it, duplicating it beside itself, transferring it to
// another organization. Every change runs in a transaction holding the tree lock (content/tree.ts).
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { spaceOperations } from '../../contract/spaces.js';
import { findCollectionGrant, inheritedUnder, memberBasis, requireOrganizationGrant, spaceRole, type CollectionGrant, type SpaceGrant } from '../auth/access.js';
import { copyFiles } from '../content/file-bytes.js';
import { insertRevision, loadRevision } from '../content/revisions.store.js';
import { lastKey, lockTree, lockTreeOfItem, placementOfMove, placeNextToSpace } from '../content/tree.js';
import { countsOfGrant, NEW_SPACE_COUNTS } from '../change-requests/space-counts.js';
import type { Ctx } from '../context.js';
import { changeRequests, spaces } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { leaveOrganization } from './space-departure.js';
import { toSpace, type Space, type SpaceRow } from './space-view.js';
import { publish } from '../events/domain-events.js';

type MoveSpace = z.output<typeof spaceOperations.moveSpace.body>;
type TransferSpace = z.output<typeof spaceOperations.transferSpace.body>;

/** A collection of `organizationId` the caller can see; throws NotFound naming the field. */
async function collectionIn(ctx: Ctx, organizationId: string, collectionId: string, field: string): Promise<CollectionGrant> {
  const found = await findCollectionGrant(ctx, collectionId);
  if (!found || found.row.organizationId !== organizationId) throw new NotFound(`Collection ${collectionId} (${field}) not found`);
  return found;
}

/** A space outside any collection cannot be in-collection: it becomes private. */
function visibilityAt(parentId: string | null, visibility: string): string {
  return parentId === null && visibility === 'in-collection' ? 'private' : visibility;
}

/** Moves a space into a collection, to the top level, and/or next to a sibling space. */
export async function moveSpace(ctx: Ctx, grant: SpaceGrant, body: MoveSpace): Promise<Space> {
  const organizationId = grant.row.organizationId;
  const moved = await ctx.transaction(async (tx) => {
    await lockTreeOfItem(tx, spaces, grant.row.id, organizationId);
    const placement = await placementOfMove(tx, organizationId, body);
    if (!placement) return undefined;
    const parent = placement.parentId === null ? undefined : await collectionIn(tx, organizationId, placement.parentId, 'body.parent');
    const visibility = visibilityAt(placement.parentId, grant.row.visibility);
    const [row] = await tx.db
      .update(spaces)
      .set({ parentId: placement.parentId, position: placement.position, visibility, updatedAt: ctx.now() })
      .where(eq(spaces.id, grant.row.id))
      .returning();
    // Out of its collection, an `in-collection` space becomes private: its integrations are told.
    if (visibility !== grant.row.visibility) {
      await publish(tx, 'space visibility updated', { spaceId: grant.row.id, previousVisibility: grant.row.visibility, visibility });
    }
    return { row, parent };
  });
  const counts = await countsOfGrant(ctx.db, grant);
  if (!moved) return toSpace(ctx, { ...grant.row, ...counts }, grant.role);
  return toSpace(ctx, { ...moved.row, ...counts }, spaceRole({ ...grant, inherited: inheritedUnder(moved.parent) }, moved.row));
}

/**
 * A new space right after the original, in the same parent, with its settings (title, emoji, visibility,
 * edit mode, default level, language, merge rules) and its content: a first revision holding the
 * original's current pages (same ids, tree and block keys), files and variables, and a copy of the
 * files' bytes, all in one transaction.
 */
export async function duplicateSpace(ctx: Ctx, grant: SpaceGrant): Promise<Space> {
  const source = grant.row;
  const now = ctx.now();
  const row = await ctx.transaction(async (tx) => {
    await lockTree(tx, source.organizationId);
    const { position } = await placeNextToSpace(tx, source.organizationId, source.id, 'after');
    // The content as of now: the space row is read again under the lock, so a merge that committed
    // meanwhile is in the copy.
    const [fresh] = await tx.db.select({ revisionId: spaces.revisionId }).from(spaces).where(eq(spaces.id, source.id)).for('share');
    // Without Documents: the copy names the same Documents by hash (content_documents), so none is copied.
    const copied = fresh?.revisionId ?? source.revisionId;
    const { content } = await loadRevision(tx.db, copied, source.createdAt, { documents: false, git: false });
    const [inserted] = await tx.db
      .insert(spaces)
      .values({
        id: newId('spc', now.getTime()),
        organizationId: source.organizationId,
        parentId: source.parentId,
        title: source.title,
        emoji: source.emoji,
        visibility: source.visibility,
        editMode: source.editMode,
        mergeRules: source.mergeRules,
        language: source.language,
        defaultLevel: source.defaultLevel,
        revisionId: newId('rev', now.getTime()),
        position,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const revision = await insertRevision(tx, inserted.id, { parents: [], type: 'edits', content });
    await copyFiles(tx, source.id, inserted.id);
    const [withContent] = await tx.db.update(spaces).set({ revisionId: revision.id }).where(eq(spaces.id, inserted.id)).returning();
    await publish(tx, 'space created with content', { spaceId: inserted.id, revisionId: revision.id, copiedFrom: { spaceId: source.id, revisionId: copied } });
    return withContent;
  });
  // The duplicate's change requests and comments are not copied.
  return toSpace(ctx, { ...row, ...NEW_SPACE_COUNTS }, spaceRole(grant, row));
}

/**
 * Moves a space to another organization where the caller is admin (NotFound or Forbidden otherwise), last
 * at its top level or in `collection` there. Its change requests go with it.
 */
export async function transferSpace(ctx: Ctx, grant: SpaceGrant, body: TransferSpace): Promise<Space> {
  const target = await requireOrganizationGrant(ctx, body.organization, 'admin');
  const parent = body.collection === undefined ? undefined : await collectionIn(ctx, body.organization, body.collection, 'body.collection');
  const parentId = parent?.row.id ?? null;
  const source: SpaceRow = grant.row;
  // Its change requests and comments go with it, so its counters do not change.
  const counts = await countsOfGrant(ctx.db, grant);
  if (source.organizationId === body.organization && source.parentId === parentId) return toSpace(ctx, { ...source, ...counts }, grant.role);
  const row = await ctx.transaction(async (tx) => {
    await lockTree(tx, source.organizationId, body.organization);
    const position = await lastKey(tx, body.organization, parentId);
    const [moved] = await tx.db
      .update(spaces)
      .set({
        organizationId: body.organization,
        parentId,
        position,
        visibility: visibilityAt(parentId, source.visibility),
        updatedAt: ctx.now(),
      })
      .where(eq(spaces.id, source.id))
      .returning();
    // An issue cluster belongs to the old organization: a moved change request no longer addresses it.
    await tx.db.update(changeRequests).set({ organizationId: body.organization, conversationsIssuesClusterId: null }).where(eq(changeRequests.spaceId, source.id));
    if (source.organizationId !== body.organization) await leaveOrganization(tx, [source.id], source.organizationId);
    // Only the grants of members of the new organization follow it (permissions, server/permissions/grant-cleanup.ts).
    await publish(tx, 'content transferred', { organizationId: body.organization, spaceIds: [source.id] });
    return moved;
  });
  return toSpace(ctx, { ...row, ...counts }, spaceRole(memberBasis(target, inheritedUnder(parent)), row));
}

