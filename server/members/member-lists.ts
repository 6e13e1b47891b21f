// A member's spaces (with the member's role on each) and teams (with the member's team role).
import { and, count, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { memberOperations } from '../../contract/members.js';
import type { OrganizationGrant } from '../auth/access.js';
import { pageOf, rowsOf } from '../db/attached-select.js';
import { asRole, type Role } from '../auth/roles.js';
import { memberSees, spaceRoleOnRows } from '../auth/space-reach.js';
import { spaceCounts } from '../change-requests/space-counts.js';
import type { Ctx } from '../context.js';
import { members, spaces, teamMembers, teams } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { toSpace } from '../spaces/space-view.js';
import { teamFields, toTeam } from '../teams/team-view.js';
import { containsPattern, directedPage, finishPage, totalField } from './directed-page.js';
import { literalLimit } from '../db/literal-limit.js';

type SpacesQuery = z.output<typeof memberOperations.listSpacesForOrganizationMember.query>;
type TeamsQuery = z.output<typeof memberOperations.listTeamsForOrganizationMember.query>;

/** The select of the member's role in the organization (no row: not a member). */
function memberRoleSelect(ctx: Ctx, organizationId: string, userId: string) {
  return ctx.db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
}

/** The member's role in the organization, from the grant's statement when it came with it; throws NotFound when the user is not a member. */
async function memberRole(ctx: Ctx, org: OrganizationGrant, userId: string): Promise<Role | null> {
  const [row] = await rowsOf(org.attached, 'member_role', memberRoleSelect(ctx, org.organization.id, userId));
  if (!row) throw new NotFound(`Member ${userId} not found in this organization`);
  return asRole(row.role);
}

/**
 * The selects of the member's role (whether they are one), and of one page of the live spaces the member can
 * access, by id in direction `order`, each with the member's role on it, and of their total: only those the
 * caller can see too (docs/permissions.md), so a list never shows a space its caller cannot read. The
 * member's role is read in SQL; the caller's organization role `callerRole` is given, or read in SQL when
 * listSpacesForOrganizationMember attaches them to its grant (attached-reads.ts).
 */
export function memberSpacesPageSelects(ctx: Ctx, organizationId: string, callerRole: string | null | SQL, userId: string, query: SpacesQuery) {
  const memberRole = memberRoleSelect(ctx, organizationId, userId);
  // A member who is none has no role: the handler answers 404 before the page matters.
  const role = sql<string | null>`(${memberRole})`;
  // A member listing their own spaces is both: one role per space to compute, not two.
  const self = userId === ctx.caller.userId;
  // Each computed on the page's rows with what it looks up read once per statement (space-reach.ts).
  const memberRoleOnSpace = spaceRoleOnRows(organizationId, userId, role);
  const callerRoleOnSpace = spaceRoleOnRows(organizationId, ctx.caller.userId, callerRole);
  const where = and(
    eq(spaces.organizationId, organizationId),
    isNull(spaces.deletedAt),
    // Set-wise (server/auth/space-reach.ts): the roles are computed on the page's rows only.
    memberSees(organizationId, userId, role, '"spaces"'),
    self ? undefined : memberSees(organizationId, ctx.caller.userId, callerRole, '"spaces"'),
  );
  const page = directedPage([{ column: spaces.id }], query.order, query);
  const total = ctx.db.select({ n: count() }).from(spaces).where(where);
  const rows = ctx.db
    .select({
      space: spaces,
      memberRole: memberRoleOnSpace,
      callerRole: self ? sql<string | null>`NULL::text` : callerRoleOnSpace,
      counts: spaceCounts(),
      total: totalField(total),
    })
    .from(spaces)
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { memberRole, page, rows, total };
}

/** The live spaces a member can access (memberSpacesPageSelects), from the grant's statement when they came with it. */
export async function listMemberSpaces(ctx: Ctx, org: OrganizationGrant, userId: string, query: SpacesQuery) {
  await memberRole(ctx, org, userId);
  const self = userId === ctx.caller.userId;
  const { page, rows, total } = memberSpacesPageSelects(ctx, org.organization.id, org.role, userId, query);
  const { items, totalCount } = await pageOf(org.attached, 'member_spaces', page, rows, total);
  return finishPage(items, page.limit, totalCount, (row) => [row.space.id], (row) => ({
    permission: asRole(row.memberRole) ?? 'read',
    space: toSpace(ctx, { ...row.space, ...row.counts }, asRole(self ? row.memberRole : row.callerRole)),
  }));
}

/**
 * The selects of the member's role (whether they are one) and of one page of the teams they belong to, in
 * creation order, optionally by title, and of their total: as listMemberTeams reads them, and
 * listTeamsForOrganizationMember attaches them (attached-reads.ts).
 */
export function memberTeamsPageSelects(ctx: Ctx, organizationId: string, userId: string, query: TeamsQuery) {
  const where = and(
    eq(teamMembers.organizationId, organizationId),
    eq(teamMembers.userId, userId),
    query.title === undefined ? undefined : ilike(teams.title, containsPattern(query.title)),
  );
  const page = directedPage([{ column: teams.id }], 'asc', query);
  const total = ctx.db.select({ n: count() }).from(teamMembers).innerJoin(teams, eq(teams.id, teamMembers.teamId)).where(where);
  const rows = ctx.db
    .select({ ...teamFields(ctx.caller.userId), memberRole: teamMembers.role, total: totalField(total) })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { memberRole: memberRoleSelect(ctx, organizationId, userId), page, rows, total };
}

/** The teams a member belongs to (memberTeamsPageSelects), with the member's team role; from the grant's statement when they came with it. */
export async function listMemberTeams(ctx: Ctx, org: OrganizationGrant, userId: string, query: TeamsQuery) {
  await memberRole(ctx, org, userId);
  const { page, rows, total } = memberTeamsPageSelects(ctx, org.organization.id, userId, query);
  const { items, totalCount } = await pageOf(org.attached, 'member_teams', page, rows, total);
  return finishPage(items, page.limit, totalCount, (row) => [row.team.id], (row) => ({
    team: toTeam(row, org.role),
    member: { role: row.memberRole as 'owner' | 'member' },
  }));
}
