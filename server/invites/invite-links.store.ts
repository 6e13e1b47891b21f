// Invite links (organization_invites): to the organization with a role, or to a space or collection with a
// level on it; expiring or not; revoked by deleting them (organization-membership.store.ts deleteInvite).
// Joining with one honours the organization's `inviteLinks` switch and its SSO enforcement.
import { randomBytes } from 'node:crypto';
import { and, count, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { inviteOperations } from '../../contract/invites.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import { collectionRoleOf, spaceRoleOf } from '../auth/grants.js';
import { addMember } from '../auth/bootstrap.js';
import { asRole, atLeast, strongest, type Role } from '../auth/roles.js';
import { spaceCountFields, type SpaceCounts } from '../change-requests/space-counts.js';
import { toCollection } from '../collections/collections.store.js';
import type { Ctx } from '../context.js';
import { collections, contentGrants, members, organizationInvites, organizations, spaces, users } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { directedPage, finishPage } from '../members/directed-page.js';
import { toSpace } from '../spaces/space-view.js';
import { checkJoinByEmailDomain } from '../sso/join-policy.js';

type CreateInvite = z.output<typeof inviteOperations.createOrganizationInvite.body>;
type UpdateInvite = z.output<typeof inviteOperations.updateOrganizationInviteById.body>;
type InviteRow = typeof organizationInvites.$inferSelect;
export type InviteLink = components['schemas']['OrganizationInviteLink'];
type ListedInviteLink = components['schemas']['ListedInviteLink'];

/**
 * An invite's id is what the link carries and all it takes to join: 128 random bits, not a time-ordered id
 * (whose tail a guesser could walk).
 */
export const newInviteId = () => `inv_${randomBytes(16).toString('base64url')}`;

/** Not expired at `now`. */
const live = (now: Date) => or(isNull(organizationInvites.expiresAt), gt(organizationInvites.expiresAt, now));

/** The role of `userId` in the organization (undefined: not a member; null: a guest). */
async function membershipOf(ctx: Ctx, organizationId: string, userId: string): Promise<{ role: Role | null } | undefined> {
  const [row] = await ctx.db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  return row && { role: asRole(row.role) };
}

/** What invites show of their targets, for the caller: read for a whole page at once (at most three queries, whatever its length). */
interface Targets {
  spaces: Map<string, { row: typeof spaces.$inferSelect & SpaceCounts; role: Role | null }>;
  collections: Map<string, { row: typeof collections.$inferSelect; role: Role | null }>;
  membership: { role: Role | null } | undefined;
}

async function loadTargets(ctx: Ctx, rows: InviteRow[]): Promise<Targets> {
  const spaceIds = [...new Set(rows.flatMap((r) => (r.spaceId ? [r.spaceId] : [])))];
  const collectionIds = [...new Set(rows.flatMap((r) => (r.collectionId ? [r.collectionId] : [])))];
  const organizationId = rows[0]?.organizationId;
  const membership = organizationId === undefined ? undefined : await membershipOf(ctx, organizationId, ctx.caller.userId);
  const orgRole = membership?.role ?? null;
  const userId = ctx.caller.userId;
  // Someone outside the organization (about to join) has no role on its content.
  const none = sql<string | null>`NULL::text`;
  const spaceRows =
    spaceIds.length === 0
      ? []
      : await ctx.db
          .select({ row: spaces, counts: spaceCountFields(), role: membership ? spaceRoleOf(userId, orgRole) : none })
          .from(spaces)
          .where(inArray(spaces.id, spaceIds));
  const collectionRows =
    collectionIds.length === 0
      ? []
      : await ctx.db
          .select({ row: collections, role: membership ? collectionRoleOf(userId, orgRole) : none })
          .from(collections)
          .where(inArray(collections.id, collectionIds));
  return {
    spaces: new Map(spaceRows.map((r) => [r.row.id, { row: { ...r.row, ...r.counts }, role: asRole(r.role) }])),
    collections: new Map(collectionRows.map((r) => [r.row.id, { row: r.row, role: asRole(r.role) }])),
    membership,
  };
}

/** The API form of an invite, as the caller sees it: its target with their role there, and whether it adds anything for them. */
function toInviteLink(ctx: Ctx, row: InviteRow, targets: Targets): InviteLink {
  const common = {
    object: 'invite' as const,
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    ...(row.expiresAt && { expiresAt: row.expiresAt.toISOString() }),
  };
  const level = asRole(row.level);
  const adds = (role: Role | null) => !(level === null ? role !== null : atLeast(role, level));
  if (row.spaceId) {
    const space = targets.spaces.get(row.spaceId)!;
    return { ...common, level, redundant: !adds(space.role), space: toSpace(ctx, space.row, space.role) };
  }
  if (row.collectionId) {
    const collection = targets.collections.get(row.collectionId)!;
    return { ...common, level, redundant: !adds(collection.role), collection: toCollection(ctx, collection.row, collection.role) };
  }
  const role = asRole(row.role);
  const redundant = targets.membership !== undefined && (role === null || atLeast(targets.membership.role, role));
  return { ...common, role, redundant, ...(row.email !== null && { email: row.email }) };
}

/** An invite as the list shows it: one to content with the organization role it gives, a guest's (GitBook lists every invite with a role). */
function listed(link: InviteLink): ListedInviteLink {
  return 'role' in link ? link : { ...link, role: null };
}

/** One invite's API form. */
async function viewInvite(ctx: Ctx, row: InviteRow): Promise<InviteLink> {
  return toInviteLink(ctx, row, await loadTargets(ctx, [row]));
}

async function findInvite(ctx: Ctx, organizationId: string, inviteId: string, liveOnly: boolean): Promise<InviteRow> {
  const [row] = await ctx.db
    .select()
    .from(organizationInvites)
    .where(and(eq(organizationInvites.id, inviteId), eq(organizationInvites.organizationId, organizationId), liveOnly ? live(ctx.now()) : undefined));
  if (!row) throw new NotFound(`Invite ${inviteId} not found`);
  return row;
}

/** Creates an invite link; see the contract for the rules. */
export async function createInvite(ctx: Ctx, org: OrganizationGrant, body: CreateInvite): Promise<InviteLink> {
  if (!org.organization.inviteLinks) throw new BadRequest('Invalid request: this organization does not take invite links (its `inviteLinks` is false)');
  const now = ctx.now();
  const expiresAt = body.expiresAt === undefined ? null : new Date(body.expiresAt);
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw new BadRequest('body.expiresAt: must be in the future');
  const target = { spaceId: null as string | null, collectionId: null as string | null, level: null as Role | null, role: null as Role | null };
  if ('space' in body) {
    const [space] = await ctx.db
      .select({ id: spaces.id })
      .from(spaces)
      .where(and(eq(spaces.id, body.space), eq(spaces.organizationId, org.organization.id), isNull(spaces.deletedAt)));
    if (!space) throw new NotFound(`body.space: space ${body.space} not found in this organization`);
    Object.assign(target, { spaceId: space.id, level: body.level });
  } else if ('collection' in body) {
    const [collection] = await ctx.db
      .select({ id: collections.id })
      .from(collections)
      .where(and(eq(collections.id, body.collection), eq(collections.organizationId, org.organization.id)));
    if (!collection) throw new NotFound(`body.collection: collection ${body.collection} not found in this organization`);
    Object.assign(target, { collectionId: collection.id, level: body.level });
  } else {
    target.role = body.role;
  }
  const [row] = await ctx.db
    .insert(organizationInvites)
    .values({ id: newInviteId(), organizationId: org.organization.id, ...target, expiresAt, createdAt: now })
    .returning();
  return viewInvite(ctx, row);
}

/** The organization's live invites, oldest first. */
export async function listInvites(ctx: Ctx, org: OrganizationGrant, request: { page?: string; limit?: number }) {
  const where = and(eq(organizationInvites.organizationId, org.organization.id), live(ctx.now()));
  const page = directedPage([{ column: organizationInvites.createdAt, cast: 'timestamptz' }, { column: organizationInvites.id }], 'asc', request);
  const total = ctx.db.select({ n: count() }).from(organizationInvites).where(where);
  const rows = await ctx.db
    .select({ invite: organizationInvites, total: sql<number>`(${total})`.mapWith(Number) })
    .from(organizationInvites)
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(page.fetch);
  const totalCount = rows[0]?.total ?? (await total)[0].n;
  const targets = await loadTargets(ctx, rows.map((r) => r.invite));
  return finishPage(rows, page.limit, totalCount, (r) => [r.invite.createdAt.toISOString(), r.invite.id], (r) => listed(toInviteLink(ctx, r.invite, targets)));
}

/** An invite, to whoever has its id; 404 when unknown, revoked or expired. */
export async function getInvite(ctx: Ctx, organizationId: string, inviteId: string): Promise<InviteLink> {
  return viewInvite(ctx, await findInvite(ctx, organizationId, inviteId, true));
}

/** Changes the role (organization invite) or the level (content invite) of an invite. */
export async function updateInvite(ctx: Ctx, org: OrganizationGrant, inviteId: string, body: UpdateInvite): Promise<InviteLink> {
  const row = await findInvite(ctx, org.organization.id, inviteId, false);
  const toContent = row.spaceId !== null || row.collectionId !== null;
  if ('role' in body && toContent) throw new BadRequest('body.role: this invite is to a space or collection: change its `level`');
  if ('level' in body && !toContent) throw new BadRequest('body.level: this invite is to the organization: change its `role`');
  const [updated] = await ctx.db
    .update(organizationInvites)
    .set('role' in body ? { role: body.role } : { level: body.level })
    .where(eq(organizationInvites.id, row.id))
    .returning();
  return viewInvite(ctx, updated);
}

/** An invite by email is used by the account with that email only. */
async function checkInvitedEmail(ctx: Ctx, email: string): Promise<void> {
  const [caller] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, ctx.caller.userId));
  if (caller?.email.toLowerCase() !== email) throw new BadRequest('Invalid request: this invitation is for another email than your account\'s');
}

/** Joins the organization with an invite; see the contract for the rules. */
export async function joinWithInvite(ctx: Ctx, organizationId: string, inviteId: string): Promise<void> {
  const [org] = await ctx.db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw new NotFound(`Organization ${organizationId} not found`);
  const invite = await findInvite(ctx, organizationId, inviteId, false);
  if (invite.expiresAt && invite.expiresAt.getTime() <= ctx.now().getTime()) {
    throw new BadRequest(`Invalid request: invite ${inviteId} expired at ${invite.expiresAt.toISOString()}`);
  }
  const userId = ctx.caller.userId;
  const byEmail = invite.email !== null;
  if (byEmail) await checkInvitedEmail(ctx, invite.email!);
  else if (!org.inviteLinks) throw new BadRequest('Invalid request: this organization does not take invite links (its `inviteLinks` is false)');
  const membership = await membershipOf(ctx, organizationId, userId);
  // SSO enforcement and SSO-created accounts apply to newcomers as for joining by email domain; an invite by
  // email is the organization's own word for this person, who then signs in through its SSO where enforced.
  if (!membership) await checkJoinByEmailDomain(ctx.db, byEmail ? { id: org.id, sso: false } : org, userId, true);
  const toContent = invite.spaceId !== null || invite.collectionId !== null;
  await ctx.transaction(async (tx) => {
    const now = tx.now();
    if (byEmail) {
      // Used once: a second join (or the link's page) finds nothing.
      const [used] = await tx.db.delete(organizationInvites).where(eq(organizationInvites.id, invite.id)).returning({ id: organizationInvites.id });
      if (!used) throw new NotFound(`Invite ${inviteId} not found`);
    }
    // A member keeps a stronger role; a newcomer to content joins as a guest.
    const role = toContent ? (membership?.role ?? null) : membership ? strongest(membership.role, asRole(invite.role)) : asRole(invite.role);
    if (byEmail && (invite.sso || org.sso)) {
      // Invited as an SSO member: signs in through the organization's identity provider from now on.
      await tx.db
        .insert(members)
        .values({ organizationId, userId, role, sso: true, joinedAt: now })
        .onConflictDoUpdate({ target: [members.organizationId, members.userId], set: { role, sso: true } });
    } else if (!membership || role !== membership.role) await addMember(tx.db, organizationId, userId, role, now);
    const level = asRole(invite.level);
    if (!toContent || level === null) return;
    const target = invite.spaceId ? eq(contentGrants.spaceId, invite.spaceId) : eq(contentGrants.collectionId, invite.collectionId!);
    const [existing] = await tx.db.select({ role: contentGrants.role }).from(contentGrants).where(and(target, eq(contentGrants.userId, userId)));
    if (existing && atLeast(asRole(existing.role), level)) return;
    await tx.db.delete(contentGrants).where(and(target, eq(contentGrants.userId, userId)));
    await tx.db.insert(contentGrants).values({
      id: newId('grt', now.getTime()),
      organizationId,
      spaceId: invite.spaceId,
      collectionId: invite.collectionId,
      userId,
      role: level,
      createdAt: now,
    });
  });
}
