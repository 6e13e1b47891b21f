// Spaces: creation in the content tree, settings, soft delete and restore. Access to the space itself
// is checked by the access layer before these run; they apply only the conditional rules.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { spaceOperations } from '../../contract/spaces.js';
import { findCollectionGrant, inheritedUnder, memberBasis, spaceRole, type OrganizationGrant, type SpaceGrant } from '../auth/access.js';
import { asRole, atLeast } from '../auth/roles.js';
import { memberSees, spaceRoleOnRows } from '../auth/space-reach.js';
import { countsOfGrant, NEW_SPACE_COUNTS, spaceCounts } from '../change-requests/space-counts.js';
import type { Ctx } from '../context.js';
import { keysetPageSelects, listBody, readKeysetPage, type PageRequest } from '../db/paginate.js';
import { spaces } from '../db/schema/index.js';
import { Forbidden, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { insertSpace } from './space-inserts.js';
import { toSpace, type Space } from './space-view.js';
import { publish } from '../events/domain-events.js';

type CreateSpace = z.output<typeof spaceOperations.createSpace.body>;
type UpdateSpace = z.output<typeof spaceOperations.updateSpaceById.body>;

/** How long a deleted space can be restored before it is gone for good (the purge job removes it). */
export const RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** The space of a grant, as the API shows it to the caller. */
export async function viewSpace(ctx: Ctx, grant: SpaceGrant): Promise<Space> {
  return toSpace(ctx, { ...grant.row, ...(await countsOfGrant(ctx.db, grant)) }, grant.role);
}

/** Creates an empty space at the top level or in the collection `parent` (404 when not visible). */
export async function createSpace(ctx: Ctx, org: OrganizationGrant, body: CreateSpace): Promise<Space> {
  const organizationId = org.organization.id;
  const parent = body.parent === undefined ? undefined : await findCollectionGrant(ctx, body.parent);
  if (body.parent !== undefined && parent?.row.organizationId !== organizationId) {
    throw new NotFound(`Parent collection ${body.parent} not found`);
  }
  const now = ctx.now();
  const parentId = parent?.row.id ?? null;
  // At the end of its parent, in one transaction under the organization's tree lock (with the creations
  // that arrived meanwhile: server/spaces/space-inserts.ts).
  const row = await insertSpace(ctx, {
    id: newId('spc', now.getTime()),
    organizationId,
    parentId,
    title: body.title || 'Untitled',
    emoji: body.emoji,
    visibility: parentId ? 'in-collection' : 'private',
    editMode: body.editMode,
    mergeRules: { type: 'inherit' },
    language: body.language ?? null,
    // Every space starts with an empty first revision; the content area gives revisions their pages.
    revisionId: newId('rev', now.getTime()),
    createdAt: now,
    updatedAt: now,
  });
  // A space is created without grants: the creator's role follows from the organization and the parent.
  return toSpace(ctx, { ...row, ...NEW_SPACE_COUNTS }, spaceRole(memberBasis(org, inheritedUnder(parent)), row));
}

/**
 * The selects of a page of the organization's spaces that are not deleted and that the caller can see
 * (docs/permissions.md: a guest only those granted), in creation order, each with the caller's role on it,
 * and of their total: the caller's organization role `orgRole` is given, or read in SQL when
 * listSpacesInOrganizationById attaches them to its grant (attached-reads.ts).
 */
export function spacesPageSelects(ctx: Ctx, organizationId: string, orgRole: string | null | SQL, page: PageRequest) {
  // The caller's role on the page's rows, with its chains of collections and grants read once (space-reach.ts).
  const role = spaceRoleOnRows(organizationId, ctx.caller.userId, orgRole);
  // Which spaces the caller sees, set-wise (server/auth/space-reach.ts): the role is computed on the page's
  // rows only, not on every space of the organization for the total.
  const where = and(eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt), memberSees(organizationId, ctx.caller.userId, orgRole, '"spaces"'));
  return keysetPageSelects(ctx.db, spaces, where, [spaces.id], page, { role, counts: spaceCounts() });
}

/** A page of the organization's spaces the caller can see (spacesPageSelects), from the grant's statement when it came with it. */
export async function listSpacesInOrganization(ctx: Ctx, org: OrganizationGrant, page: PageRequest) {
  const result = await readKeysetPage(org.attached, 'spaces', spacesPageSelects(ctx, org.organization.id, org.role, page));
  return listBody(result, (row) => toSpace(ctx, { ...row, ...row.counts }, asRole(row.role)));
}

/** Applies the given settings: `editMode`, `defaultLevel` and `mergeRules` need admin. */
export async function updateSpace(ctx: Ctx, grant: SpaceGrant, body: UpdateSpace): Promise<Space> {
  const adminOnly = body.editMode !== undefined || body.defaultLevel !== undefined || body.mergeRules !== undefined;
  if (adminOnly && !atLeast(grant.role, 'admin')) {
    throw new Forbidden('You need the admin role on this space to change its edit mode, default level or merge rules');
  }
  const [row] = await ctx.db
    .update(spaces)
    .set({
      title: body.title,
      emoji: body.emoji,
      editMode: body.editMode,
      defaultLevel: body.defaultLevel,
      language: body.language,
      mergeRules: body.mergeRules,
      updatedAt: ctx.now(),
    })
    .where(eq(spaces.id, grant.row.id))
    .returning();
  return toSpace(ctx, { ...row, ...(await countsOfGrant(ctx.db, grant)) }, spaceRole(grant, row));
}

/** Marks a space deleted: it can be restored for 7 days, then the purge job removes it. */
export async function deleteSpace(ctx: Ctx, grant: SpaceGrant): Promise<void> {
  await ctx.db.update(spaces).set({ deletedAt: ctx.now() }).where(and(eq(spaces.id, grant.row.id), isNull(spaces.deletedAt)));
}

/** Brings back a space deleted less than 7 days ago; throws NotFound past that window. */
export async function restoreSpace(ctx: Ctx, grant: SpaceGrant): Promise<Space> {
  const { deletedAt, parentId, visibility } = grant.row;
  if (!deletedAt) return viewSpace(ctx, grant);
  if (ctx.now().getTime() - deletedAt.getTime() > RESTORE_WINDOW_MS) {
    throw new NotFound(`Space ${grant.row.id} was deleted more than 7 days ago and is permanently removed`);
  }
  // A space whose collection was deleted meanwhile comes back at the top level, as a private space.
  const restored = parentId === null && visibility === 'in-collection' ? 'private' : visibility;
  const row = await ctx.transaction(async (tx) => {
    const [updated] = await tx.db
      .update(spaces)
      .set({ deletedAt: null, visibility: restored, updatedAt: ctx.now() })
      .where(eq(spaces.id, grant.row.id))
      .returning();
    if (restored !== visibility) await publish(tx, 'space visibility updated', { spaceId: grant.row.id, previousVisibility: visibility, visibility: restored });
    return updated;
  });
  return toSpace(ctx, { ...row, ...(await countsOfGrant(ctx.db, grant)) }, spaceRole(grant, row));
}
