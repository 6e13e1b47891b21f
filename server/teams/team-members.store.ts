// Who is in a team, and changes to it. Changing members needs the organization admin role or the
// owner role in the team (a conditional rule on top of the declared `read`).
import { and, count, eq, inArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { teamOperations } from '../../contract/teams.js';
import type { OrganizationGrant } from '../auth/access.js';
import { pageOf, rowsOf } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import type { PageRequest } from '../db/paginate.js';
import { members, teamMembers, teams, users } from '../db/schema/index.js';
import { BadRequest, Forbidden, NotFound } from '../errors.js';
import { directedPage, finishPage, totalField } from '../members/directed-page.js';
import { memberFields, viewerOf, toMember } from '../members/member-view.js';
import { managesTeam } from './team-view.js';
import { literalLimit } from '../db/literal-limit.js';

type BulkUpdate = z.output<typeof teamOperations.updateMembersInOrganizationTeam.body>;
type TeamRole = 'owner' | 'member';

/**
 * Locks the team row for the rest of the transaction (membership changes to one team queue up) and
 * returns the caller's role in it; undefined when the team is not in the organization.
 */
async function lockTeam(tx: Ctx, organizationId: string, teamId: string) {
  const [team] = await tx.db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.organizationId, organizationId)))
    .for('update');
  if (!team) return undefined;
  const [own] = await tx.db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, tx.caller.userId)));
  return { callerRole: own?.role ?? null };
}

function requireManager(org: OrganizationGrant, callerTeamRole: string | null): void {
  if (!managesTeam(org.role, callerTeamRole)) throw new Forbidden('You need the admin role in the organization or the owner role in this team');
}

/** Organization members by user id or email (case-insensitive): identifier → user id. */
async function resolveUsers(tx: Ctx, organizationId: string, identifiers: string[]): Promise<Map<string, string>> {
  if (identifiers.length === 0) return new Map();
  const emails = identifiers.filter((i) => i.includes('@')).map((e) => e.toLowerCase());
  const rows = await tx.db
    .select({ userId: users.id, email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, organizationId), or(inArray(users.id, identifiers), emails.length ? inArray(sql`lower(${users.email})`, emails) : undefined)));
  const found = new Map<string, string>();
  for (const id of identifiers) {
    const row = rows.find((r) => r.userId === id || r.email.toLowerCase() === id.toLowerCase());
    if (row) found.set(id, row.userId);
  }
  return found;
}

/**
 * Adds `add`, removes `remove` (a user in both is removed) and sets the roles of `memberships` (which
 * adds those users too), all or nothing: an identifier that is no member of the organization is a 400
 * naming it. Throws NotFound for an unknown team, Forbidden for a caller who cannot manage it.
 */
export async function updateTeamMembers(ctx: Ctx, org: OrganizationGrant, teamId: string, body: BulkUpdate): Promise<void> {
  const organizationId = org.organization.id;
  await ctx.transaction(async (tx) => {
    const team = await lockTeam(tx, organizationId, teamId);
    if (!team) throw new NotFound(`Team ${teamId} not found`);
    requireManager(org, team.callerRole);
    const add = body.add ?? [];
    const remove = body.remove ?? [];
    const roles = Object.entries(body.memberships ?? {});
    const resolved = await resolveUsers(tx, organizationId, [...new Set([...add, ...remove, ...roles.map(([id]) => id)])]);
    const unknown = (field: string, list: string[]) => list.filter((i) => !resolved.has(i)).map((i) => `body.${field}: ${i}`);
    const problems = [...unknown('add', add), ...unknown('remove', remove), ...unknown('memberships', roles.map(([id]) => id))];
    if (problems.length > 0) throw new BadRequest(`Invalid request: not members of this organization: ${problems.join(', ')}`);
    const removed = new Set(remove.map((i) => resolved.get(i)!));
    const wanted = new Map<string, TeamRole | undefined>();
    for (const id of add) wanted.set(resolved.get(id)!, undefined);
    for (const [id, m] of roles) wanted.set(resolved.get(id)!, m.role);
    for (const userId of removed) wanted.delete(userId);
    const now = ctx.now();
    for (const [userId, role] of wanted) await upsert(tx, organizationId, teamId, userId, role, now);
    if (removed.size > 0) await tx.db.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), inArray(teamMembers.userId, [...removed])));
  });
}

/** Puts a user in a team; `role` undefined keeps an existing member's role (a new one gets `member`). */
async function upsert(tx: Ctx, organizationId: string, teamId: string, userId: string, role: TeamRole | undefined, now: Date) {
  const insert = tx.db.insert(teamMembers).values({ teamId, organizationId, userId, role: role ?? 'member', createdAt: now });
  await (role === undefined ? insert.onConflictDoNothing() : insert.onConflictDoUpdate({ target: [teamMembers.teamId, teamMembers.userId], set: { role } }));
}

/** Adds an organization member to a team or changes its team role; NotFound for an unknown team or member. */
export async function putTeamMember(ctx: Ctx, org: OrganizationGrant, teamId: string, userId: string, role: TeamRole | undefined): Promise<void> {
  const organizationId = org.organization.id;
  await ctx.transaction(async (tx) => {
    const team = await lockTeam(tx, organizationId, teamId);
    if (!team) throw new NotFound(`Team ${teamId} not found`);
    requireManager(org, team.callerRole);
    const [member] = await tx.db
      .select({ userId: members.userId })
      .from(members)
      .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
    if (!member) throw new NotFound(`Member ${userId} not found in this organization`);
    await upsert(tx, organizationId, teamId, userId, role, ctx.now());
  });
}

/** Removes a user from a team; nothing when the team or the membership does not exist. */
export async function removeTeamMember(ctx: Ctx, org: OrganizationGrant, teamId: string, userId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const team = await lockTeam(tx, org.organization.id, teamId);
    if (!team) return;
    requireManager(org, team.callerRole);
    await tx.db.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  });
}

/**
 * The selects of the team (its id: whether the organization has it) and of one page of its members, by user
 * id, and of their total: as listTeamMembers reads them, and listTeamMembersInOrganizationById attaches
 * them (attached-reads.ts). So the counts are bounded by the caller's sight without their role (viewerOf),
 * which the attached select may not know; for an admin caller the sight's SQL says it (space-reach.ts).
 */
export function teamMembersPageSelects(ctx: Ctx, organizationId: string, teamId: string, request: PageRequest) {
  const team = ctx.db.select({ id: teams.id }).from(teams).where(and(eq(teams.id, teamId), eq(teams.organizationId, organizationId)));
  const where = eq(teamMembers.teamId, teamId);
  const page = directedPage([{ column: teamMembers.userId }], 'asc', request);
  const total = ctx.db.select({ n: count() }).from(teamMembers).where(where);
  const rows = ctx.db
    .select({ ...memberFields(organizationId, viewerOf(ctx.caller)), teamRole: teamMembers.role, total: totalField(total) })
    .from(teamMembers)
    .innerJoin(members, and(eq(members.organizationId, teamMembers.organizationId), eq(members.userId, teamMembers.userId)))
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { team, page, rows, total };
}

/** The members of a team (teamMembersPageSelects), each with its organization membership and team role; from the grant's statement when they came with it. */
export async function listTeamMembers(ctx: Ctx, org: OrganizationGrant, teamId: string, request: PageRequest) {
  const selects = teamMembersPageSelects(ctx, org.organization.id, teamId, request);
  const [team] = await rowsOf(org.attached, 'team_exists', selects.team);
  if (!team) throw new NotFound(`Team ${teamId} not found`);
  const { page } = selects;
  const { items: rows, totalCount } = await pageOf(org.attached, 'team_members', page, selects.rows, selects.total);
  return finishPage(rows, page.limit, totalCount, (row) => [row.member.userId], (row) => ({
    organization: toMember(row, ctx.urls),
    team: { role: row.teamRole as TeamRole },
    permissions: { view: true },
  }));
}
