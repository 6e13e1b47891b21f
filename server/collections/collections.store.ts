import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { callerContentRole, requireContentRole } from '../auth/content-access.js';
import { requireMembership, type Membership } from '../auth/membership.js';
import { atLeast, collectionPermissions, contentRole, type Role } from '../auth/roles.js';
import { collectionSubtree, lastPosition, placeNextToSpace, type Placement } from '../content/tree.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { keysetPage, listBody, type PageRequest } from '../db/paginate.js';
import { collections, spaces } from '../db/schema.js';
import { Conflict, Forbidden, NotFound, unlessNotFound } from '../http/errors.js';
import { newId } from '../ids.js';
import { toSpace } from '../spaces/space-view.js';

export type Collection = components['schemas']['Collection'];
type CollectionRow = typeof collections.$inferSelect;
type Body<K extends keyof components['schemas']> = components['schemas'][K];

function toCollection(ctx: Ctx, row: CollectionRow, role: Role | null): Collection {
  return {
    object: 'collection',
    id: row.id,
    title: row.title,
    ...(row.description != null && { description: row.description }),
    organization: row.organizationId,
    ...(row.parentId && { parent: row.parentId }),
    defaultLevel: row.defaultLevel as Role | null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    urls: {
      location: ctx.urls.api(`/collections/${row.id}`),
      app: ctx.urls.app(`/o/${row.organizationId}/c/${row.id}`),
    },
    permissions: collectionPermissions(role),
  };
}

interface Access {
  row: CollectionRow;
  role: Role | null;
}

/** A collection the caller can view, with the caller's role on it; throws NotFound otherwise. */
export async function accessCollection(ctx: Ctx, collectionId: string): Promise<Access> {
  const [row] = await ctx.db.select().from(collections).where(eq(collections.id, collectionId));
  const role = row ? await callerContentRole(ctx, row.organizationId, row.defaultLevel) : null;
  if (!row || !atLeast(role, 'read')) throw new NotFound(`Collection ${collectionId} not found`);
  return { row, role };
}

function requireRole(access: Access, required: Role, action: string): void {
  requireContentRole(access.role, required, 'collection', action);
}

/**
 * Where new content goes: the collection `parentId` of the caller's organization (the caller needs the
 * create role on it), or the top level (the create role in the organization). Throws NotFound or Forbidden.
 */
export async function creationParent(ctx: Ctx, membership: Membership, parentId: string | undefined, action: string): Promise<string | null> {
  if (parentId === undefined) {
    if (!atLeast(membership.role, 'create')) throw new Forbidden(`You need the create role in this organization to ${action}`);
    return null;
  }
  const parent = await unlessNotFound(accessCollection(ctx, parentId));
  if (!parent || parent.row.organizationId !== membership.organizationId) throw new NotFound(`Parent collection ${parentId} not found`);
  requireRole(parent, 'create', action);
  return parent.row.id;
}

async function reload(ctx: Ctx, collectionId: string): Promise<Collection> {
  const access = await accessCollection(ctx, collectionId);
  return toCollection(ctx, access.row, access.role);
}

export async function getCollection(ctx: Ctx, collectionId: string): Promise<Collection> {
  return reload(ctx, collectionId);
}

/** Creates a collection at the top level or in `parent`; needs the create role (on the parent, if any). */
export async function createCollection(ctx: Ctx, organizationId: string, body: Body<'CreateCollection'>): Promise<Collection> {
  const membership = await requireMembership(ctx.db, organizationId, ctx.caller.userId);
  const parentId = await creationParent(ctx, membership, body.parent, 'create a collection');
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(collections)
    .values({
      id: newId('col', now.getTime()),
      organizationId,
      parentId,
      title: body.title || 'Untitled',
      position: await lastPosition(ctx.db, organizationId, parentId),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toCollection(ctx, row, contentRole(membership.role, null));
}

/** Collections of an organization in creation order; all of them, or only the top-level ones. */
export async function listCollections(ctx: Ctx, organizationId: string, nested: boolean, page: PageRequest) {
  const membership = await requireMembership(ctx.db, organizationId, ctx.caller.userId);
  // Guests see no content unless granted it, and content grants are not stored yet.
  if (membership.role === null) return { items: [], count: 0 };
  const where = and(eq(collections.organizationId, organizationId), nested ? undefined : isNull(collections.parentId));
  const result = await keysetPage(ctx.db, collections, where, [collections.id], page);
  return listBody(result, (row) => toCollection(ctx, row, contentRole(membership.role, row.defaultLevel as Role | null)));
}

/** Changes title, description or default level; needs admin on the collection. */
export async function updateCollection(ctx: Ctx, collectionId: string, body: Body<'UpdateCollection'>): Promise<Collection> {
  const access = await accessCollection(ctx, collectionId);
  requireRole(access, 'admin', 'change it');
  if (Object.keys(body).length > 0) {
    await ctx.db
      .update(collections)
      .set({ ...body, updatedAt: ctx.now() })
      .where(eq(collections.id, collectionId));
  }
  return reload(ctx, collectionId);
}

/** Deletes a collection, its nested collections, and (softly) their spaces; nothing to do when it does not exist. */
export async function deleteCollection(ctx: Ctx, collectionId: string): Promise<void> {
  const access = await unlessNotFound(accessCollection(ctx, collectionId));
  if (!access) return;
  requireRole(access, 'admin', 'delete it');
  await ctx.db.transaction(async (tx) => {
    const ids = await collectionSubtree(tx as Db, collectionId);
    // The spaces go to the trash at the top level, so that a restore has somewhere to put them.
    await tx
      .update(spaces)
      .set({ deletedAt: ctx.now(), parentId: null })
      .where(and(inArray(spaces.parentId, ids), isNull(spaces.deletedAt)));
    await tx.update(spaces).set({ parentId: null }).where(inArray(spaces.parentId, ids));
    await tx.delete(collections).where(inArray(collections.id, ids));
  });
}

/** The space a move places its item next to, and on which side. */
export function anchorOf(position: { before?: { space: string }; after?: { space: string } } | undefined) {
  if (position?.before) return { side: 'before' as const, space: position.before.space };
  if (position?.after) return { side: 'after' as const, space: position.after.space };
  return undefined;
}

/** Moves a collection to another parent and/or next to a space; throws Conflict for a move into itself. */
export async function moveCollection(ctx: Ctx, collectionId: string, body: Body<'MoveCollection'>): Promise<Collection> {
  const access = await accessCollection(ctx, collectionId);
  requireRole(access, 'admin', 'move it');
  const organizationId = access.row.organizationId;
  const anchor = anchorOf(body.position);
  let placement: Placement | undefined;
  if (anchor) {
    placement = await placeNextToSpace(ctx.db, organizationId, anchor.space, anchor.side);
    if (body.parent !== undefined && body.parent !== placement.parentId) {
      throw new Conflict(`Space ${anchor.space} is not in the collection given as parent`);
    }
  } else if (body.parent !== undefined) {
    placement = { parentId: body.parent, position: await lastPosition(ctx.db, organizationId, body.parent) };
  }
  if (!placement) return toCollection(ctx, access.row, access.role);
  if (placement.parentId !== null) {
    const parent = await unlessNotFound(accessCollection(ctx, placement.parentId));
    if (!parent || parent.row.organizationId !== organizationId) throw new NotFound(`Parent collection ${placement.parentId} not found`);
    if ((await collectionSubtree(ctx.db, collectionId)).includes(parent.row.id)) {
      throw new Conflict('A collection cannot be moved into itself or into one of its nested collections');
    }
  }
  await ctx.db
    .update(collections)
    .set({ parentId: placement.parentId, position: placement.position, updatedAt: ctx.now() })
    .where(eq(collections.id, collectionId));
  return reload(ctx, collectionId);
}

/** Moves a collection with everything in it to the top level of another organization; admin of both. */
export async function transferCollection(ctx: Ctx, collectionId: string, targetOrganizationId: string): Promise<Collection> {
  const access = await accessCollection(ctx, collectionId);
  requireRole(access, 'admin', 'transfer it');
  const target = await requireMembership(ctx.db, targetOrganizationId, ctx.caller.userId);
  if (!atLeast(target.role, 'admin')) throw new Forbidden('You need the admin role in the target organization');
  if (targetOrganizationId === access.row.organizationId) return toCollection(ctx, access.row, access.role);
  await ctx.db.transaction(async (tx) => {
    const ids = await collectionSubtree(tx as Db, collectionId);
    const position = await lastPosition(tx as Db, targetOrganizationId, null);
    await tx.update(collections).set({ organizationId: targetOrganizationId }).where(inArray(collections.id, ids));
    await tx
      .update(collections)
      .set({ parentId: null, position, updatedAt: ctx.now() })
      .where(eq(collections.id, collectionId));
    await tx.update(spaces).set({ organizationId: targetOrganizationId }).where(inArray(spaces.parentId, ids));
  });
  return reload(ctx, collectionId);
}

/** The spaces directly in a collection, in their order. */
export async function listSpacesInCollection(ctx: Ctx, collectionId: string, page: PageRequest) {
  const access = await accessCollection(ctx, collectionId);
  const membership = await requireMembership(ctx.db, access.row.organizationId, ctx.caller.userId);
  const where = and(eq(spaces.parentId, collectionId), isNull(spaces.deletedAt));
  const result = await keysetPage(ctx.db, spaces, where, [spaces.position, spaces.id], page);
  return listBody(result, (row) => toSpace(ctx, row, contentRole(membership.role, row.defaultLevel as Role | null)));
}
