import { and, eq, isNull } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { callerContentRole, requireContentRole } from '../auth/content-access.js';
import { requireMembership } from '../auth/membership.js';
import { atLeast, contentRole, type Role } from '../auth/roles.js';
import { creationParent } from '../collections/collections.store.js';
import { lastPosition } from '../content/tree.js';
import type { Ctx } from '../context.js';
import { keysetPage, listBody, type PageRequest } from '../db/paginate.js';
import { collections, spaces } from '../db/schema.js';
import { NotFound, unlessNotFound } from '../http/errors.js';
import { newId } from '../ids.js';
import { toSpace, type Space, type SpaceRow } from './space-view.js';

type Body<K extends keyof components['schemas']> = components['schemas'][K];

/** How long a deleted space can be restored before it is gone for good. */
export const RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

interface Access {
  row: SpaceRow;
  role: Role | null;
}

/**
 * A space the caller can view, with the caller's role on it; throws NotFound otherwise. Deleted spaces
 * are not found unless `includeDeleted`.
 */
async function accessSpace(ctx: Ctx, spaceId: string, includeDeleted = false): Promise<Access> {
  const [row] = await ctx.db.select().from(spaces).where(eq(spaces.id, spaceId));
  const role = row ? await callerContentRole(ctx, row.organizationId, row.defaultLevel) : null;
  if (!row || (row.deletedAt && !includeDeleted) || !atLeast(role, 'read')) throw new NotFound(`Space ${spaceId} not found`);
  return { row, role };
}

function requireRole(access: Access, required: Role, action: string): void {
  requireContentRole(access.role, required, 'space', action);
}

async function reload(ctx: Ctx, spaceId: string): Promise<Space> {
  const access = await accessSpace(ctx, spaceId);
  return toSpace(ctx, access.row, access.role);
}

export async function getSpace(ctx: Ctx, spaceId: string): Promise<Space> {
  return reload(ctx, spaceId);
}

/** Creates an empty space at the top level or in a collection; needs the create role there. */
export async function createSpace(ctx: Ctx, organizationId: string, body: Body<'CreateSpace'>): Promise<Space> {
  const membership = await requireMembership(ctx.db, organizationId, ctx.caller.userId);
  const parentId = await creationParent(ctx, membership, body.parent, 'create a space');
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(spaces)
    .values({
      id: newId('spc', now.getTime()),
      organizationId,
      parentId,
      title: body.title || 'Untitled',
      emoji: body.emoji ?? '',
      visibility: parentId ? 'in-collection' : 'private',
      editMode: body.editMode ?? 'live',
      mergeRules: { type: 'inherit' },
      language: body.language ?? null,
      // Every space starts with an empty first revision; the content area gives revisions their pages.
      revisionId: newId('rev', now.getTime()),
      position: await lastPosition(ctx.db, organizationId, parentId),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toSpace(ctx, row, contentRole(membership.role, null));
}

/** The organization's spaces that are not deleted, in creation order. */
export async function listSpacesInOrganization(ctx: Ctx, organizationId: string, page: PageRequest) {
  const membership = await requireMembership(ctx.db, organizationId, ctx.caller.userId);
  // Guests see no content unless granted it, and content grants are not stored yet.
  if (membership.role === null) return { items: [], count: 0 };
  const where = and(eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt));
  const result = await keysetPage(ctx.db, spaces, where, [spaces.id], page);
  return listBody(result, (row) => toSpace(ctx, row, contentRole(membership.role, row.defaultLevel as Role | null)));
}

/** Applies the given settings: title, emoji and language need edit; the rest needs admin. */
export async function updateSpace(ctx: Ctx, spaceId: string, body: Body<'UpdateSpace'>): Promise<Space> {
  const access = await accessSpace(ctx, spaceId);
  const adminOnly = body.editMode !== undefined || body.defaultLevel !== undefined || body.mergeRules !== undefined;
  requireRole(access, adminOnly ? 'admin' : 'edit', adminOnly ? 'change its edit mode, default level or merge rules' : 'change it');
  if (Object.keys(body).length > 0) {
    await ctx.db
      .update(spaces)
      .set({ ...body, updatedAt: ctx.now() })
      .where(eq(spaces.id, spaceId));
  }
  return reload(ctx, spaceId);
}

/** Marks a space deleted (restorable for 7 days); nothing to do when it does not exist or is already deleted. */
export async function deleteSpace(ctx: Ctx, spaceId: string): Promise<void> {
  const access = await unlessNotFound(accessSpace(ctx, spaceId));
  if (!access) return;
  requireRole(access, 'admin', 'delete it');
  await ctx.db.update(spaces).set({ deletedAt: ctx.now() }).where(eq(spaces.id, spaceId));
}

/** Brings back a space deleted less than 7 days ago; throws NotFound past that window. */
export async function restoreSpace(ctx: Ctx, spaceId: string): Promise<Space> {
  const access = await accessSpace(ctx, spaceId, true);
  requireRole(access, 'admin', 'restore it');
  const { deletedAt, parentId } = access.row;
  if (deletedAt) {
    if (ctx.now().getTime() - deletedAt.getTime() > RESTORE_WINDOW_MS) {
      throw new NotFound(`Space ${spaceId} was deleted more than 7 days ago and is permanently removed`);
    }
    // The space's collection may have been deleted meanwhile: the space then comes back at the top level.
    const [parent] = parentId
      ? await ctx.db.select({ id: collections.id }).from(collections).where(eq(collections.id, parentId))
      : [];
    await ctx.db
      .update(spaces)
      .set({ deletedAt: null, parentId: parent?.id ?? null, updatedAt: ctx.now() })
      .where(eq(spaces.id, spaceId));
  }
  return reload(ctx, spaceId);
}
