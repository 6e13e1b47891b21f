// Collections: creation in the content tree, settings, moves, transfers and deletes. Access to the
// collection itself is checked by the access layer before these run; they apply only the conditional
// rules, and every change to the tree runs in a transaction holding the tree lock.
import { and, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { collectionOperations } from '../../contract/collections.js';
import type { components } from '../../generated/types.js';
import {
  collectionRole,
  findCollectionGrant,
  inheritedUnder,
  memberBasis,
  requireOrganizationGrant,
  spaceRole,
  type CollectionGrant,
  type CollectionRow,
  type OrganizationGrant,
} from '../auth/access.js';
import { pageOf } from '../db/attached-select.js';
import { collectionRoleOf, spaceRoleOf } from '../auth/grants.js';
import { asDefaultLevel, asRole, collectionPermissions, type Role } from '../auth/roles.js';
import { collectionSubtree, lastKey, lockTree, lockTreeOfItem, placementOfMove } from '../content/tree.js';
import { spaceCounts } from '../change-requests/space-counts.js';
import type { Ctx } from '../context.js';
import { keysetPageSelects, listBody, readKeysetPage, type PageRequest } from '../db/paginate.js';
import { directedPage, finishPage, totalField } from '../members/directed-page.js';
import { changeRequests, collections, spaces } from '../db/schema/index.js';
import { Conflict, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { leaveOrganization } from '../spaces/space-departure.js';
import { toSpace } from '../spaces/space-view.js';
import { publish } from '../events/domain-events.js';
import { literalLimit } from '../db/literal-limit.js';

export type Collection = components['schemas']['Collection'];
type CreateCollection = z.output<typeof collectionOperations.createCollection.body>;
type UpdateCollection = z.output<typeof collectionOperations.updateCollectionById.body>;
type MoveCollection = z.output<typeof collectionOperations.moveCollection.body>;

export function toCollection(ctx: Ctx, row: CollectionRow, role: Role | null): Collection {
  return {
    object: 'collection',
    id: row.id,
    title: row.title,
    ...(row.description != null && { description: row.description }),
    organization: row.organizationId,
    ...(row.parentId && { parent: row.parentId }),
    defaultLevel: asDefaultLevel(row.defaultLevel),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    urls: {
      location: ctx.urls.api(`/collections/${row.id}`),
      app: ctx.urls.app(`/o/${row.organizationId}/c/${row.id}`),
    },
    permissions: collectionPermissions(role),
  };
}

/** The collection of a grant, as the API shows it to the caller. */
export function viewCollection(ctx: Ctx, grant: CollectionGrant): Collection {
  return toCollection(ctx, grant.row, grant.role);
}

/** A collection of `organizationId` the caller can see, as a parent for new or moved content; throws NotFound. */
async function parentGrant(ctx: Ctx, organizationId: string, parentId: string): Promise<CollectionGrant> {
  const parent = await findCollectionGrant(ctx, parentId);
  if (!parent || parent.row.organizationId !== organizationId) throw new NotFound(`Parent collection ${parentId} not found`);
  return parent;
}

/** Creates a collection at the top level or inside `parent` (404 when not visible). */
export async function createCollection(ctx: Ctx, org: OrganizationGrant, body: CreateCollection): Promise<Collection> {
  const organizationId = org.organization.id;
  const parent = body.parent === undefined ? undefined : await parentGrant(ctx, organizationId, body.parent);
  const now = ctx.now();
  const row = await ctx.transaction(async (tx) => {
    await lockTree(tx, organizationId);
    const parentId = parent?.row.id ?? null;
    const [inserted] = await tx.db
      .insert(collections)
      .values({
        id: newId('col', now.getTime()),
        organizationId,
        parentId,
        title: body.title || 'Untitled',
        position: await lastKey(tx, organizationId, parentId),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return inserted;
  });
  // A collection is created without grants: the creator's role follows from the organization and the parent.
  return toCollection(ctx, row, collectionRole(memberBasis(org, inheritedUnder(parent)), row));
}

/**
 * The selects of a page of the organization's collections in creation order, all of them or only the
 * top-level ones, that the caller can see (docs/permissions.md), each with the caller's role on it, and of
 * their total. The caller's organization role `orgRole` is given, or read in SQL when
 * listCollectionsInOrganizationById attaches them to its grant (attached-reads.ts).
 */
export function collectionsPageSelects(ctx: Ctx, organizationId: string, orgRole: string | null | SQL, nested: boolean, page: PageRequest) {
  const role = collectionRoleOf(ctx.caller.userId, orgRole);
  const where = and(
    eq(collections.organizationId, organizationId),
    nested ? undefined : isNull(collections.parentId),
    orgRole === 'admin' ? undefined : sql`${role} IS NOT NULL`,
  );
  return keysetPageSelects(ctx.db, collections, where, [collections.id], page, { role });
}

/** A page of the organization's collections (collectionsPageSelects), from the grant's statement when it came with it. */
export async function listCollections(ctx: Ctx, org: OrganizationGrant, nested: boolean, page: PageRequest) {
  const result = await readKeysetPage(org.attached, 'collections', collectionsPageSelects(ctx, org.organization.id, org.role, nested, page));
  return listBody(result, (row) => toCollection(ctx, row, asRole(row.role)));
}

/** Changes title, description or default level. */
export async function updateCollection(ctx: Ctx, grant: CollectionGrant, body: UpdateCollection): Promise<Collection> {
  const [row] = await ctx.db
    .update(collections)
    .set({ title: body.title, description: body.description, defaultLevel: body.defaultLevel, updatedAt: ctx.now() })
    .where(eq(collections.id, grant.row.id))
    .returning();
  return toCollection(ctx, row, collectionRole(grant, row));
}

/** Deletes a collection and its nested collections; their spaces go to the trash (restorable, at the top level). */
export async function deleteCollection(ctx: Ctx, grant: CollectionGrant): Promise<void> {
  await ctx.transaction(async (tx) => {
    await lockTree(tx, grant.row.organizationId);
    const ids = await collectionSubtree(tx, grant.row.id);
    // A restored space comes back at the top level, where it cannot be in-collection.
    const detached = {
      parentId: null,
      visibility: sql`CASE WHEN ${spaces.visibility} = 'in-collection' THEN 'private' ELSE ${spaces.visibility} END`,
    };
    await tx.db
      .update(spaces)
      .set({ ...detached, deletedAt: ctx.now() })
      .where(and(inArray(spaces.parentId, ids), isNull(spaces.deletedAt)));
    await tx.db.update(spaces).set(detached).where(inArray(spaces.parentId, ids));
    await tx.db.delete(collections).where(inArray(collections.id, ids));
  });
}

/** Moves a collection to another parent and/or next to a space; throws Conflict for a move into itself. */
export async function moveCollection(ctx: Ctx, grant: CollectionGrant, body: MoveCollection): Promise<Collection> {
  const organizationId = grant.row.organizationId;
  const moved = await ctx.transaction(async (tx) => {
    // Under the tree lock, the cycle check below still holds when the move is written.
    await lockTreeOfItem(tx, collections, grant.row.id, organizationId);
    const placement = await placementOfMove(tx, organizationId, body);
    if (!placement) return undefined;
    let parent: CollectionGrant | undefined;
    if (placement.parentId !== null) {
      parent = await parentGrant(tx, organizationId, placement.parentId);
      if ((await collectionSubtree(tx, grant.row.id)).includes(parent.row.id)) {
        throw new Conflict('body.parent: a collection cannot be moved into itself or into one of its nested collections');
      }
    }
    const [row] = await tx.db
      .update(collections)
      .set({ parentId: placement.parentId, position: placement.position, updatedAt: ctx.now() })
      .where(eq(collections.id, grant.row.id))
      .returning();
    return { row, inherited: inheritedUnder(parent) };
  });
  if (!moved) return viewCollection(ctx, grant);
  return toCollection(ctx, moved.row, collectionRole({ ...grant, inherited: moved.inherited }, moved.row));
}

/** Moves a collection with everything in it to the top level of another organization where the caller is admin. */
export async function transferCollection(ctx: Ctx, grant: CollectionGrant, targetOrganizationId: string): Promise<Collection> {
  const target = await requireOrganizationGrant(ctx, targetOrganizationId, 'admin');
  if (targetOrganizationId === grant.row.organizationId) return viewCollection(ctx, grant);
  const row = await ctx.transaction(async (tx) => {
    await lockTree(tx, grant.row.organizationId, targetOrganizationId);
    const ids = await collectionSubtree(tx, grant.row.id);
    const position = await lastKey(tx, targetOrganizationId, null);
    await tx.db.update(collections).set({ organizationId: targetOrganizationId }).where(inArray(collections.id, ids));
    await tx.db.update(spaces).set({ organizationId: targetOrganizationId }).where(inArray(spaces.parentId, ids));
    // The change requests of its spaces go with them, as in transferSpace (issue clusters stay behind).
    const movedSpaces = tx.db.select({ id: spaces.id }).from(spaces).where(inArray(spaces.parentId, ids));
    await tx.db
      .update(changeRequests)
      .set({ organizationId: targetOrganizationId, conversationsIssuesClusterId: null })
      .where(inArray(changeRequests.spaceId, movedSpaces));
    await leaveOrganization(tx, (await movedSpaces).map((s) => s.id), grant.row.organizationId);
    // Only the grants of members of the new organization follow (permissions, server/permissions/grant-cleanup.ts).
    await publish(tx, 'content transferred', { organizationId: targetOrganizationId, collectionIds: ids, spaceIds: movedSpaces });
    const [moved] = await tx.db
      .update(collections)
      .set({ parentId: null, position, updatedAt: ctx.now() })
      .where(eq(collections.id, grant.row.id))
      .returning();
    return moved;
  });
  // The caller is admin in the target organization: admin on what they moved there.
  return toCollection(ctx, row, collectionRole(memberBasis(target), row));
}

/**
 * The selects of a page of the spaces directly in the collection that the caller can see, in their order,
 * and of their total, as listSpacesInCollection reads them and listSpacesInCollectionById attaches them
 * (server/attached-reads.ts). The caller's role on each space follows from their organization role, read
 * here in SQL (disabled members have none) so that the select needs only the caller's id.
 */
export function collectionSpacesPageSelects(ctx: Ctx, collectionId: string, request: PageRequest) {
  const orgRole = sql<string | null>`(SELECT m.role FROM members m WHERE m.organization_id = "spaces"."organization_id" AND m.user_id = ${ctx.caller.userId} AND NOT m.disabled)`;
  const role = spaceRoleOf(ctx.caller.userId, orgRole);
  // An admin's role is never null: the condition keeps every space for them.
  const where = and(eq(spaces.parentId, collectionId), isNull(spaces.deletedAt), sql`${role} IS NOT NULL`);
  const page = directedPage([{ column: spaces.position }, { column: spaces.id }], 'asc', request);
  const total = ctx.db.select({ n: count() }).from(spaces).where(where);
  const rows = ctx.db
    .select({ space: spaces, counts: spaceCounts(), role, total: totalField(total) })
    .from(spaces)
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { page, rows, total };
}

/** The spaces directly in a collection that the caller can see, in their order (collectionSpacesPageSelects). */
export async function listSpacesInCollection(ctx: Ctx, grant: CollectionGrant, request: PageRequest) {
  const { page, rows, total } = collectionSpacesPageSelects(ctx, grant.row.id, request);
  const { items, totalCount } = await pageOf(grant.attached, 'collection_spaces', page, rows, total);
  return finishPage(items, page.limit, totalCount, ({ space }) => [space.position, space.id], ({ space, counts, role }) => toSpace(ctx, { ...space, ...counts }, asRole(role)));
}
