// Invite links (organization_invites): to the organization with a role, or to a space or collection with a
// level on it; expiring or not; revoked by deleting them (organization-membership.store.ts deleteInvite).
// Joining with one honours the organization's `inviteLinks` switch and its SSO enforcement.
import { randomBytes } from 'node:crypto';
import { and, count, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { inviteOperations } from '../../contract/invites.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { AttachedReadOf } from '../auth/attached-read.js';
import { collectionRoleOf, spaceRoleOf } from '../auth/grants.js';
import { addMember } from '../auth/bootstrap.js';
import { asRole, atLeast, strongest, type Role } from '../auth/roles.js';
import { spaceCounts, type SpaceCounts } from '../change-requests/space-counts.js';
import { toCollection } from '../collections/collections.store.js';
import type { Ctx } from '../context.js';
import { attachAll, attachListPage, attachSelect, pageOf, readAttached, rowsOf } from '../db/attached-select.js';
import { collections, contentGrants, members, organizationInvites, organizations, spaces, users } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { directedPage, finishPage, totalField } from '../members/directed-page.js';
import { toSpace } from '../spaces/space-view.js';
import { checkJoinByEmailDomain } from '../sso/join-policy.js';
import { literalLimit } from '../db/literal-limit.js';

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

/** The caller's membership of the organization (no row: not a member; a null role: a guest). */
function membershipSelect(ctx: Ctx, organizationId: string) {
  return ctx.db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, ctx.caller.userId)));
}

/** The caller's role in the organization (undefined: not a member; null: a guest). */
async function membershipOf(ctx: Ctx, organizationId: string): Promise<{ role: Role | null } | undefined> {
  const [row] = await membershipSelect(ctx, organizationId);
  return row && { role: asRole(row.role) };
}

/**
 * The selects of what invites show of their targets, for the caller: their membership of the organization,
 * and the spaces `spaceIds` and collections `collectionIds` (ids, or a query of them) with their role on
 * each, which follows from that membership, read in the same statement.
 */
function targetSelects(ctx: Ctx, organizationId: string, spaceIds: string[] | SQL, collectionIds: string[] | SQL) {
  const userId = ctx.caller.userId;
  const membership = membershipSelect(ctx, organizationId);
  const orgRole = sql<string | null>`(${membership})`;
  // Someone outside the organization (about to join) has no role on its content.
  const ifMember = (role: SQL<string | null>) => sql<string | null>`(CASE WHEN EXISTS (${membership}) THEN ${role} END)`;
  return {
    membership,
    spaces: ctx.db
      .select({ row: spaces, counts: spaceCounts(), role: ifMember(spaceRoleOf(userId, orgRole)) })
      .from(spaces)
      .where(inArray(spaces.id, spaceIds)),
    collections: ctx.db
      .select({ row: collections, role: ifMember(collectionRoleOf(userId, orgRole)) })
      .from(collections)
      .where(inArray(collections.id, collectionIds)),
  };
}

type TargetSelects = ReturnType<typeof targetSelects>;

/** What invites show of their targets, for the caller: read for a whole page at once. */
interface Targets {
  spaces: Map<string, { row: typeof spaces.$inferSelect & SpaceCounts; role: Role | null }>;
  collections: Map<string, { row: typeof collections.$inferSelect; role: Role | null }>;
  membership: { role: Role | null } | undefined;
}

/**
 * The targets of the invites `rows` by `selects`, from `attached` (the row of the statement that read them
 * with the invites) when they came with it, else read now: at most three queries, whatever the page's length.
 */
async function loadTargets(attached: Record<string, unknown> | undefined, selects: TargetSelects, rows: InviteRow[]): Promise<Targets> {
  const [membership] = rows.length === 0 ? [] : await rowsOf(attached, 'invite_membership', selects.membership);
  const spaceRows = rows.some((r) => r.spaceId) ? await rowsOf(attached, 'invite_spaces', selects.spaces) : [];
  const collectionRows = rows.some((r) => r.collectionId) ? await rowsOf(attached, 'invite_collections', selects.collections) : [];
  return {
    spaces: new Map(spaceRows.map((r) => [r.row.id, { row: { ...r.row, ...r.counts }, role: asRole(r.role) }])),
    collections: new Map(collectionRows.map((r) => [r.row.id, { row: r.row, role: asRole(r.role) }])),
    membership: membership && { role: asRole(membership.role) },
  };
}

/** The targets' selects as a read attached to what reads the invites (attachAll). */
const targetReads = (selects: TargetSelects) => [
  attachSelect('invite_membership', selects.membership),
  attachSelect('invite_spaces', selects.spaces),
  attachSelect('invite_collections', selects.collections),
];

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

/** One invite's API form (its targets read now). */
async function viewInvite(ctx: Ctx, row: InviteRow): Promise<InviteLink> {
  const selects = targetSelects(ctx, row.organizationId, row.spaceId ? [row.spaceId] : [], row.collectionId ? [row.collectionId] : []);
  return toInviteLink(ctx, row, await loadTargets(undefined, selects, [row]));
}

/** The select of the invite `inviteId` of the organization: only when it has not expired when `liveOnly`. */
function inviteSelect(ctx: Ctx, organizationId: string, inviteId: string, liveOnly: boolean) {
  return ctx.db
    .select()
    .from(organizationInvites)
    .where(and(eq(organizationInvites.id, inviteId), eq(organizationInvites.organizationId, organizationId), liveOnly ? live(ctx.now()) : undefined));
}

/**
 * The invite `select` (inviteSelect) selects: from `attached`, the row of the statement that read it, when it
 * came with it, else read now; NotFound when there is none.
 */
async function foundInvite(inviteId: string, attached: Record<string, unknown> | undefined, select: ReturnType<typeof inviteSelect>): Promise<InviteRow> {
  const [row] = await rowsOf(attached, 'invite', select);
  if (!row) throw new NotFound(`Invite ${inviteId} not found`);
  return row;
}

async function findInvite(ctx: Ctx, organizationId: string, inviteId: string, liveOnly: boolean): Promise<InviteRow> {
  return foundInvite(inviteId, undefined, inviteSelect(ctx, organizationId, inviteId, liveOnly));
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

/**
 * The selects of one page of the organization's live invites, oldest first, and of their total, and of what
 * they show of their targets: as listInvites reads them, and listOrganizationInviteLinks attaches them (attached-reads.ts).
 */
export function invitesPageSelects(ctx: Ctx, organizationId: string, request: { page?: string; limit?: number }) {
  const where = and(eq(organizationInvites.organizationId, organizationId), live(ctx.now()));
  const page = directedPage([{ column: organizationInvites.createdAt, cast: 'timestamptz' }, { column: organizationInvites.id }], 'asc', request);
  const total = ctx.db.select({ n: count() }).from(organizationInvites).where(where);
  const rows = ctx.db
    .select({ invite: organizationInvites, total: totalField(total) })
    .from(organizationInvites)
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  // The targets of the page's invites (and of the one past it, which says whether a next page follows).
  const targetIds = (column: string) => sql`(SELECT p.${sql.raw(column)} FROM (${rows}) p)`;
  return { page, rows, total, targets: targetSelects(ctx, organizationId, targetIds('space_id'), targetIds('collection_id')) };
}

/** The page of invites and their targets (invitesPageSelects) as listOrganizationInviteLinks attaches them to its grant. */
export const invitesAttached: AttachedReadOf = (params, ctx, query) => {
  const { targets, ...page } = invitesPageSelects(ctx, params.organizationId, query);
  return attachAll('invites', attachListPage('invites', page), ...targetReads(targets));
};

/** The organization's live invites, oldest first (invitesPageSelects); from the grant's statement when they came with it. */
export async function listInvites(ctx: Ctx, org: OrganizationGrant, request: { page?: string; limit?: number }) {
  const { page, rows, total, targets } = invitesPageSelects(ctx, org.organization.id, request);
  const { items, totalCount } = await pageOf(org.attached, 'invites', page, rows, total);
  const loaded = await loadTargets(org.attached, targets, items.map((r) => r.invite));
  return finishPage(items, page.limit, totalCount, (r) => [r.invite.createdAt.toISOString(), r.invite.id], (r) => listed(toInviteLink(ctx, r.invite, loaded)));
}

/**
 * An invite, to whoever has its id; 404 when unknown, revoked or expired. The operation has no grant to
 * carry its read: the invite and its targets are one statement of their own (readAttached).
 */
export async function getInvite(ctx: Ctx, organizationId: string, inviteId: string): Promise<InviteLink> {
  const select = inviteSelect(ctx, organizationId, inviteId, true);
  const ofInvite = (column: string) => sql`(SELECT i.${sql.raw(column)} FROM (${select}) i)`;
  const targets = targetSelects(ctx, organizationId, ofInvite('space_id'), ofInvite('collection_id'));
  const read = await readAttached(ctx.db, attachAll('invite', attachSelect('invite', select), ...targetReads(targets)));
  const row = await foundInvite(inviteId, read, select);
  return toInviteLink(ctx, row, await loadTargets(read, targets, [row]));
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
  const membership = await membershipOf(ctx, organizationId);
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
