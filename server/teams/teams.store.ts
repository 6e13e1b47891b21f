// Teams of an organization: create, list, read, rename, delete. Team membership changes are in
// team-members.store.ts. The access layer has checked the caller's organization role.
import { and, count, eq, exists, ilike, inArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { teamOperations } from '../../contract/teams.js';
import type { OrganizationGrant } from '../auth/access.js';
import { pageOf, rowsOf } from '../db/attached-select.js';
import { atLeast } from '../auth/roles.js';
import { SIGHT_FROM_ROWS, viewerSightTable } from '../auth/space-reach.js';
import type { Ctx } from '../context.js';
import { members, teamMembers, teams } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { containsPattern, directedPage, finishPage, totalField } from '../members/directed-page.js';
import { teamFields, toTeam, type Team } from './team-view.js';
import { literalLimit } from '../db/literal-limit.js';

type ListQuery = z.output<typeof teamOperations.listTeamsInOrganizationById.query>;
type CreateTeam = z.output<typeof teamOperations.createOrganizationTeam.body>;

/** The select of one team of the organization, as getTeam reads it (and getTeamInOrganizationById attaches it: attached-reads.ts). */
export function teamSelect(ctx: Ctx, organizationId: string, teamId: string) {
  return ctx.db
    .select(teamFields(ctx.caller.userId))
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.organizationId, organizationId)));
}

/** A team of the organization as the caller sees it; throws NotFound. */
export async function getTeam(ctx: Ctx, org: OrganizationGrant, teamId: string): Promise<Team> {
  const [row] = await rowsOf(org.attached, 'team', teamSelect(ctx, org.organization.id, teamId));
  if (!row) throw new NotFound(`Team ${teamId} not found`);
  return toTeam(row, org.role);
}

/**
 * The selects of one page of the organization's teams in creation order, and of their total; `owner`: only
 * those that member can manage; `title`: contains. As listTeams reads them, and listTeamsInOrganizationById
 * attaches them (attached-reads.ts).
 */
export function teamsPageSelects(ctx: Ctx, organizationId: string, query: ListQuery) {
  // A member manages every team as an admin, and the teams it owns otherwise.
  const managedBy = (userId: string) =>
    or(
      exists(ctx.db.select({ one: sql`1` }).from(members).where(and(eq(members.organizationId, organizationId), eq(members.userId, userId), eq(members.role, 'admin')))),
      exists(ctx.db.select({ one: sql`1` }).from(teamMembers).where(and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId), eq(teamMembers.role, 'owner')))),
    );
  const where = and(
    eq(teams.organizationId, organizationId),
    query.owner === undefined ? undefined : managedBy(query.owner),
    query.title === undefined ? undefined : ilike(teams.title, containsPattern(query.title)),
  );
  const page = directedPage([{ column: teams.id }], 'asc', query);
  const total = ctx.db.select({ n: count() }).from(teams).where(where);
  // A long page counts its teams' spaces in the caller's sight, joined once (space-reach.ts).
  const inSight = page.fetch >= SIGHT_FROM_ROWS;
  const select = ctx.db
    .select({ ...teamFields(ctx.caller.userId, inSight ? organizationId : undefined), total: totalField(total) })
    .from(teams)
    .$dynamic();
  const rows = (inSight ? select.crossJoin(viewerSightTable(organizationId, ctx.caller.userId, false)) : select)
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { page, rows, total };
}

/** One page of the organization's teams (teamsPageSelects), from the grant's statement when they came with it. */
export async function listTeams(ctx: Ctx, org: OrganizationGrant, query: ListQuery) {
  const { page, rows, total } = teamsPageSelects(ctx, org.organization.id, query);
  const { items, totalCount } = await pageOf(org.attached, 'teams', page, rows, total);
  return finishPage(items, page.limit, totalCount, (row) => [row.team.id], (row) => toTeam(row, org.role));
}

/**
 * Creates a team with the given organization members in it (400 naming unknown ones). A creator who is
 * not an organization admin becomes the team's owner, so it can manage the team it made.
 */
export async function createTeam(ctx: Ctx, org: OrganizationGrant, body: CreateTeam): Promise<Team> {
  const organizationId = org.organization.id;
  const wanted = [...new Set(body.members ?? [])];
  const now = ctx.now();
  const teamId = newId('tem', now.getTime());
  await ctx.transaction(async (tx) => {
    const found = wanted.length === 0 ? [] : await tx.db
      .select({ userId: members.userId })
      .from(members)
      .where(and(eq(members.organizationId, organizationId), inArray(members.userId, wanted)));
    const unknown = wanted.filter((id) => !found.some((f) => f.userId === id));
    if (unknown.length > 0) throw new BadRequest(`Invalid request: body.members: not members of this organization: ${unknown.join(', ')}`);
    await tx.db.insert(teams).values({ id: teamId, organizationId, title: body.title, createdAt: now });
    const roles = new Map(wanted.map((id) => [id, 'member']));
    if (!atLeast(org.role, 'admin')) roles.set(ctx.caller.userId, 'owner');
    if (roles.size > 0) {
      await tx.db.insert(teamMembers).values([...roles].map(([userId, role]) => ({ teamId, organizationId, userId, role, createdAt: now })));
    }
  });
  return getTeam(ctx, org, teamId);
}

/** Renames a team; throws NotFound. */
export async function renameTeam(ctx: Ctx, org: OrganizationGrant, teamId: string, title: string): Promise<Team> {
  const updated = await ctx.db
    .update(teams)
    .set({ title })
    .where(and(eq(teams.id, teamId), eq(teams.organizationId, org.organization.id)))
    .returning({ id: teams.id });
  if (updated.length === 0) throw new NotFound(`Team ${teamId} not found`);
  return getTeam(ctx, org, teamId);
}

/** Deletes a team and its memberships; nothing when it does not exist. */
export async function deleteTeam(ctx: Ctx, org: OrganizationGrant, teamId: string): Promise<void> {
  await ctx.db.delete(teams).where(and(eq(teams.id, teamId), eq(teams.organizationId, org.organization.id)));
}
