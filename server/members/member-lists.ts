// A member's spaces (with the member's role on each) and teams (with the member's team role).
import { and, count, eq, ilike, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { memberOperations } from '../../contract/members.js';
import { levels, spaceRole, type OrganizationGrant } from '../auth/access.js';
import { inheritedBySpace } from '../auth/grants.js';
import { asRole, type Role } from '../auth/roles.js';
import { spaceCountFields } from '../change-requests/space-counts.js';
import type { Ctx } from '../context.js';
import { members, spaces, teamMembers, teams } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { toSpace } from '../spaces/space-view.js';
import { teamFields, toTeam } from '../teams/team-view.js';
import { containsPattern, directedPage, finishPage } from './directed-page.js';

type SpacesQuery = z.output<typeof memberOperations.listSpacesForOrganizationMember.query>;
type TeamsQuery = z.output<typeof memberOperations.listTeamsForOrganizationMember.query>;

/** The member's role in the organization; throws NotFound when the user is not a member. */
async function memberRole(ctx: Ctx, organizationId: string, userId: string): Promise<Role | null> {
  const [row] = await ctx.db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  if (!row) throw new NotFound(`Member ${userId} not found in this organization`);
  return asRole(row.role);
}

/** The live spaces a member can access, by id in direction `order`, each with the member's role on it. */
export async function listMemberSpaces(ctx: Ctx, org: OrganizationGrant, userId: string, query: SpacesQuery) {
  const role = await memberRole(ctx, org.organization.id, userId);
  // A guest reaches no content (the description has no per-user grants on content); nor does a guest caller see any.
  if (role === null || org.role === null) return { items: [], count: 0 };
  const where = and(eq(spaces.organizationId, org.organization.id), isNull(spaces.deletedAt));
  const page = directedPage([{ column: spaces.id }], query.order, query);
  const total = ctx.db.select({ n: count() }).from(spaces).where(where);
  const rows = await ctx.db
    .select({ space: spaces, inherited: inheritedBySpace(), counts: spaceCountFields(), total: sql<number>`(${total})`.mapWith(Number) })
    .from(spaces)
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(page.fetch);
  const totalCount = rows[0]?.total ?? (await total)[0].n;
  return finishPage(rows, page.limit, totalCount, (row) => [row.space.id], (row) => {
    const inherited = levels(row.inherited);
    return {
      permission: spaceRole({ orgRole: role, inherited }, row.space) ?? 'read',
      space: toSpace(ctx, { ...row.space, ...row.counts }, spaceRole({ orgRole: org.role, inherited }, row.space)),
    };
  });
}

/** The teams a member belongs to, in creation order, optionally by title, with the member's team role. */
export async function listMemberTeams(ctx: Ctx, org: OrganizationGrant, userId: string, query: TeamsQuery) {
  await memberRole(ctx, org.organization.id, userId);
  const where = and(
    eq(teamMembers.organizationId, org.organization.id),
    eq(teamMembers.userId, userId),
    query.title === undefined ? undefined : ilike(teams.title, containsPattern(query.title)),
  );
  const page = directedPage([{ column: teams.id }], 'asc', query);
  const total = ctx.db.select({ n: count() }).from(teamMembers).innerJoin(teams, eq(teams.id, teamMembers.teamId)).where(where);
  const rows = await ctx.db
    .select({ ...teamFields(ctx.caller.userId), memberRole: teamMembers.role, total: sql<number>`(${total})`.mapWith(Number) })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(page.fetch);
  const totalCount = rows[0]?.total ?? (await total)[0].n;
  return finishPage(rows, page.limit, totalCount, (row) => [row.team.id], (row) => ({
    team: toTeam(row, org.role),
    member: { role: row.memberRole as 'owner' | 'member' },
  }));
}
