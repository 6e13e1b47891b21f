// Organization members: the list, one member, role changes, removal and the SSO flag. The access layer
// has checked the caller's role in the organization before these run.
import { and, count, eq, ilike, isNotNull, isNull, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { memberOperations } from '../../contract/members.js';
import type { OrganizationGrant } from '../auth/access.js';
import { pageOf, rowsOf } from '../db/attached-select.js';
import type { Role } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { members, users } from '../db/schema/index.js';
import { Conflict, NotFound } from '../errors.js';
import { containsPattern, directedPage, finishPage, totalField, type SortKey } from './directed-page.js';
import { memberFields, viewerOf, toMember, type Member } from './member-view.js';
import { SIGHT_FROM_ROWS, viewerSightTable } from '../auth/space-reach.js';
import { literalLimit } from '../db/literal-limit.js';

type ListQuery = z.output<typeof memberOperations.listMembersInOrganizationById.query>;

const sortKeys: Record<ListQuery['sort'], SortKey> = {
  joinedAt: { column: members.joinedAt, cast: 'timestamptz' },
  lastSeenAt: { column: members.lastSeenAt, cast: 'timestamptz' },
  name: { column: users.displayName },
};

/**
 * The selects of one page of the organization's members, filtered by role and search text, sorted as asked,
 * and of their total. As listMembers reads them, and listMembersInOrganizationById attaches them
 * (attached-reads.ts): so the counts are bounded by the caller's sight without their role (viewerOf), which
 * the attached select may not know; for an admin caller the sight's SQL says it (space-reach.ts).
 */
export function membersPageSelects(ctx: Ctx, organizationId: string, query: ListQuery) {
  const where = and(
    eq(members.organizationId, organizationId),
    query.role === undefined ? undefined : query.role === 'guest' ? isNull(members.role) : eq(members.role, query.role),
    query.search === undefined
      ? undefined
      : or(ilike(users.displayName, containsPattern(query.search)), ilike(users.email, containsPattern(query.search))),
    // Sorting by last activity lists only the members seen at least once.
    query.sort === 'lastSeenAt' ? isNotNull(members.lastSeenAt) : undefined,
  );
  const page = directedPage([sortKeys[query.sort], { column: members.userId }], query.order, query);
  // The join to users matters to the count only for the search (every member is a user: a foreign key); without
  // it the count reads members alone (10,000 members: 3.5 ms with the join, bench/scale.ts).
  const total =
    query.search === undefined
      ? ctx.db.select({ n: count() }).from(members).where(where)
      : ctx.db.select({ n: count() }).from(members).innerJoin(users, eq(users.id, members.userId)).where(where);
  // A long page counts its members' spaces in the viewer's sight, joined once (space-reach.ts).
  const inSight = page.fetch >= SIGHT_FROM_ROWS;
  const viewer = viewerOf(ctx.caller);
  const select = ctx.db
    .select({ ...memberFields(organizationId, viewer, inSight), total: totalField(total) })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .$dynamic();
  const rows = (inSight ? select.crossJoin(viewerSightTable(organizationId, viewer)) : select)
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { page, rows, total };
}

/** One page of the organization's members (membersPageSelects), from the grant's statement when they came with it. */
export async function listMembers(ctx: Ctx, org: OrganizationGrant, query: ListQuery) {
  const { page, rows, total } = membersPageSelects(ctx, org.organization.id, query);
  const { items, totalCount } = await pageOf(org.attached, 'members', page, rows, total);
  return finishPage(items, page.limit, totalCount, (row) => [sortValue(row, query.sort), row.member.userId], (row) => toMember(row, ctx.urls));
}

function sortValue(row: { member: typeof members.$inferSelect; user: typeof users.$inferSelect }, sort: ListQuery['sort']): string {
  if (sort === 'name') return row.user.displayName;
  return (sort === 'lastSeenAt' ? row.member.lastSeenAt! : row.member.joinedAt).toISOString();
}

/** The select of one member of the organization, as getMember reads it (and getMemberInOrganizationById attaches it: attached-reads.ts). */
export function memberSelect(ctx: Ctx, organizationId: string, userId: string) {
  return ctx.db
    .select(memberFields(organizationId, viewerOf(ctx.caller)))
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
}

/**
 * A member of the organization; throws NotFound when the user is not one. `attached`: the grant's row,
 * which holds the member when the operation attached memberSelect to it (server/db/attached-select.ts).
 */
export async function getMember(ctx: Ctx, organizationId: string, userId: string, attached?: Record<string, unknown>): Promise<Member> {
  const [row] = await rowsOf(attached, 'member', memberSelect(ctx, organizationId, userId));
  if (!row) throw new NotFound(`Member ${userId} not found in this organization`);
  return toMember(row, ctx.urls);
}

/**
 * Locks the organization's admin memberships for the rest of the transaction and throws Conflict when
 * `userId` is the last of them: an organization always keeps an admin. Concurrent demotions queue on
 * these row locks, and the second one re-reads the first one's change.
 */
async function keepAnAdmin(tx: Ctx, organizationId: string, userId: string, action: string): Promise<void> {
  const admins = await tx.db
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.role, 'admin'), eq(members.disabled, false)))
    .for('update');
  if (admins.length === 1 && admins[0].userId === userId) {
    throw new Conflict(`${userId} is the last admin of this organization and cannot be ${action}`);
  }
}

/** Changes a member's role (null: guest); throws NotFound for a non-member, Conflict for the last admin. */
export async function updateMemberRole(ctx: Ctx, org: OrganizationGrant, userId: string, role: Role | null | undefined): Promise<Member> {
  const organizationId = org.organization.id;
  if (role === undefined) return getMember(ctx, organizationId, userId);
  return ctx.transaction(async (tx) => {
    if (role !== 'admin') await keepAnAdmin(tx, organizationId, userId, 'demoted');
    const updated = await tx.db
      .update(members)
      .set({ role })
      .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)))
      .returning({ userId: members.userId });
    if (updated.length === 0) throw new NotFound(`Member ${userId} not found in this organization`);
    return getMember(tx, organizationId, userId);
  });
}

/** Removes a member (and so its team memberships); nothing when not a member; Conflict for the last admin. */
export async function removeMember(ctx: Ctx, org: OrganizationGrant, userId: string): Promise<void> {
  const organizationId = org.organization.id;
  await ctx.transaction(async (tx) => {
    await keepAnAdmin(tx, organizationId, userId, 'removed');
    await tx.db.delete(members).where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  });
}

/** Marks a member as signing in through SSO; throws NotFound for a non-member. */
export async function setSsoMember(ctx: Ctx, org: OrganizationGrant, userId: string): Promise<Member> {
  const organizationId = org.organization.id;
  const updated = await ctx.db
    .update(members)
    .set({ sso: true })
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)))
    .returning({ userId: members.userId });
  if (updated.length === 0) throw new NotFound(`Member ${userId} not found in this organization`);
  return getMember(ctx, organizationId, userId);
}
