// The roles given on a space, collection or site to members and teams (content_grants): giving, taking
// away and listing them, and listing everyone who reaches the resource with their effective role. The
// access layer (server/auth/) reads the same rows with every request; docs/permissions.md has the rule.
import { and, count, eq, inArray, isNotNull, not, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { pageOf, rowsOf } from '../db/attached-select.js';
import type { Role } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { contentGrants, members, sites, teams, users } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { directedPage, finishPage, totalField } from '../members/directed-page.js';
import { teamFields, toTeam } from '../teams/team-view.js';
import { toUser } from '../users/users.store.js';
import type { PageRequest } from '../db/paginate.js';
import { literalLimit } from '../db/literal-limit.js';

export type ResourceKind = 'space' | 'collection' | 'site';

/** A resource that carries grants: what it is, its id, its organization. */
export interface GrantTarget {
  kind: ResourceKind;
  id: string;
  organizationId: string;
}

const resourceColumn: Record<ResourceKind, PgColumn> = {
  space: contentGrants.spaceId,
  collection: contentGrants.collectionId,
  site: contentGrants.siteId,
};

const onTarget = (target: Pick<GrantTarget, 'kind' | 'id'>) => eq(resourceColumn[target.kind], target.id);

/** The select of siteTarget (the site permission lists attach it: server/attached-reads.ts). */
export function siteTargetSelect(ctx: Ctx, organizationId: string, siteId: string) {
  return ctx.db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, siteId), eq(sites.organizationId, organizationId)));
}

/**
 * A site of the organization (from the grant's statement when it came with it: `attached`); throws
 * NotFound otherwise (sites are reached through their organization).
 */
export async function siteTarget(ctx: Ctx, organizationId: string, siteId: string, attached?: Record<string, unknown>): Promise<GrantTarget> {
  const [row] = await rowsOf(attached, 'site_target', siteTargetSelect(ctx, organizationId, siteId));
  if (!row) throw new NotFound(`Site ${siteId} not found`);
  return { kind: 'site', id: row.id, organizationId };
}

/** Throws NotFound naming the first of `ids` that is not a member (guests included) of the organization. */
async function requireMembers(ctx: Ctx, organizationId: string, ids: string[], field: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await ctx.db
    .select({ id: members.userId })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), inArray(members.userId, ids)));
  const known = new Set(found.map((r) => r.id));
  const missing = ids.findIndex((id) => !known.has(id));
  if (missing >= 0) throw new NotFound(`${field}[${missing}]: user ${ids[missing]} is not a member of this organization`);
}

/** Throws NotFound naming the first of `ids` that is not a team of the organization. */
async function requireTeams(ctx: Ctx, organizationId: string, ids: string[], field: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await ctx.db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.organizationId, organizationId), inArray(teams.id, ids)));
  const known = new Set(found.map((r) => r.id));
  const missing = ids.findIndex((id) => !known.has(id));
  if (missing >= 0) throw new NotFound(`${field}[${missing}]: team ${ids[missing]} not found in this organization`);
}

/**
 * Gives each of `users` and `teams` the role `role` on the target (replacing the one they had there), or
 * takes it away (`role: null`); all or nothing. `fields` names the inputs for the 404 of an unknown one.
 */
export async function setGrants(
  ctx: Ctx,
  target: GrantTarget,
  principals: { users?: string[]; teams?: string[] },
  role: Role | null,
  fields = { users: 'body.users', teams: 'body.teams' },
): Promise<void> {
  const userIds = [...new Set(principals.users ?? [])];
  const teamIds = [...new Set(principals.teams ?? [])];
  await requireMembers(ctx, target.organizationId, principals.users ?? [], fields.users);
  await requireTeams(ctx, target.organizationId, principals.teams ?? [], fields.teams);
  await ctx.transaction(async (tx) => {
    const byPrincipal = [
      userIds.length > 0 ? inArray(contentGrants.userId, userIds) : undefined,
      teamIds.length > 0 ? inArray(contentGrants.teamId, teamIds) : undefined,
    ].filter((c): c is SQL => c !== undefined);
    await tx.db.delete(contentGrants).where(and(onTarget(target), byPrincipal.length === 1 ? byPrincipal[0] : sql`(${byPrincipal[0]} OR ${byPrincipal[1]})`));
    if (role === null) return;
    const now = tx.now();
    const base = {
      organizationId: target.organizationId,
      spaceId: target.kind === 'space' ? target.id : null,
      collectionId: target.kind === 'collection' ? target.id : null,
      siteId: target.kind === 'site' ? target.id : null,
      role,
      createdAt: now,
    };
    const rows = [
      ...userIds.map((userId) => ({ ...base, id: newId('grt', now.getTime()), userId, teamId: null })),
      ...teamIds.map((teamId) => ({ ...base, id: newId('grt', now.getTime()), userId: null, teamId })),
    ];
    if (rows.length > 0) await tx.db.insert(contentGrants).values(rows);
  });
}

/** Takes away the role given to a user or a team on the target; whether there was one. */
export async function removeGrant(ctx: Ctx, target: GrantTarget, principal: { userId: string } | { teamId: string }): Promise<boolean> {
  const who = 'userId' in principal ? eq(contentGrants.userId, principal.userId) : eq(contentGrants.teamId, principal.teamId);
  const removed = await ctx.db.delete(contentGrants).where(and(onTarget(target), who)).returning({ id: contentGrants.id });
  return removed.length > 0;
}

/** What a list of the grants on a target reads by: the target's kind and id (its organization follows from them). */
export type ListedTarget = Pick<GrantTarget, 'kind' | 'id'>;

/**
 * The selects of a page of the users given a role on the target itself, by user id, and of their total, as
 * listUserGrants reads them and the permission lists attach them (server/attached-reads.ts).
 */
export function userGrantsPageSelects(ctx: Ctx, target: ListedTarget, request: PageRequest) {
  const where = and(onTarget(target), isNotNull(contentGrants.userId));
  const page = directedPage([{ column: contentGrants.userId }], 'asc', request);
  const total = ctx.db.select({ n: count() }).from(contentGrants).where(where);
  const rows = ctx.db
    .select({ role: contentGrants.role, user: users, total: totalField(total) })
    .from(contentGrants)
    .innerJoin(users, eq(users.id, contentGrants.userId))
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { page, rows, total };
}

/** The users given a role on the target itself, by user id (userGrantsPageSelects); from `attached`, the grant's row, when they came with it. */
export async function listUserGrants(ctx: Ctx, target: ListedTarget, request: PageRequest, attached?: Record<string, unknown>) {
  const { page, rows, total } = userGrantsPageSelects(ctx, target, request);
  const { items, totalCount } = await pageOf(attached, 'user_grants', page, rows, total);
  return finishPage(items, page.limit, totalCount, (row) => [row.user.id], (row) => ({ permission: row.role as Role, user: toUser(row.user, ctx.urls) }));
}

/** The selects of a page of the teams given a role on the target itself, by team id, and of their total (as userGrantsPageSelects). */
export function teamGrantsPageSelects(ctx: Ctx, target: ListedTarget, request: PageRequest) {
  const where = and(onTarget(target), isNotNull(contentGrants.teamId));
  const page = directedPage([{ column: contentGrants.teamId }], 'asc', request);
  const total = ctx.db.select({ n: count() }).from(contentGrants).where(where);
  const rows = ctx.db
    .select({ role: contentGrants.role, ...teamFields(ctx.caller.userId), total: totalField(total) })
    .from(contentGrants)
    .innerJoin(teams, eq(teams.id, contentGrants.teamId))
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { page, rows, total };
}

/**
 * The teams given a role on the target itself, by team id (teamGrantsPageSelects); `orgRole` is the
 * caller's (for the team's `permissions`); `attached` as listUserGrants's.
 */
export async function listTeamGrants(ctx: Ctx, target: ListedTarget, orgRole: Role | null, request: PageRequest, attached?: Record<string, unknown>) {
  const { page, rows, total } = teamGrantsPageSelects(ctx, target, request);
  const { items, totalCount } = await pageOf(attached, 'team_grants', page, rows, total);
  return finishPage(items, page.limit, totalCount, (row) => [row.team.id], (row) => ({ permission: row.role as Role, team: toTeam(row, orgRole) }));
}

/** The strongest grant of the member row's user or of their teams on the target (columns written qualified: a join). */
function memberGranted(target: ListedTarget, onlyFromTeams = false): SQL<string | null> {
  const column = sql.raw(`g.${target.kind}_id`);
  const who = onlyFromTeams
    ? sql`g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = "members"."organization_id" AND tm.user_id = "members"."user_id")`
    : sql`(g.user_id = "members"."user_id" OR g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = "members"."organization_id" AND tm.user_id = "members"."user_id"))`;
  return sql<string | null>`(SELECT rank_role(max(role_rank(g.role))) FROM content_grants g WHERE ${column} = ${target.id} AND ${who})`;
}

/** Each member row's effective role on the target, by the rule of docs/permissions.md (null: none). */
function effectiveRole(target: ListedTarget): SQL<string | null> {
  switch (target.kind) {
    case 'space':
      return sql`space_role_of((SELECT s FROM spaces s WHERE s.id = ${target.id}), "members"."user_id", true, "members"."role")`;
    case 'collection':
      return sql`(SELECT content_role(true, "members"."role", c.default_level, ${memberGranted(target)}, collection_chain_access(c.parent_id, "members"."user_id"))
        FROM collections c WHERE c.id = ${target.id})`;
    case 'site':
      return sql`CASE WHEN "members"."role" = 'admin' THEN 'admin' ELSE rank_role(NULLIF(GREATEST(role_rank("members"."role"), role_rank(${memberGranted(target)})), 0)) END`;
  }
}

// The organization of the target, read with the list: the target's id is all its selects need.
const organizationOf = (target: ListedTarget) => sql`(SELECT t.organization_id FROM ${sql.raw(`${target.kind}s`)} t WHERE t.id = ${target.id})`;

/**
 * The selects of a page of every enabled member who reaches the target, with their effective role (only
 * `role` when given), by user id, and of their total. For a site, where the role comes from: the
 * organization role, or a grant (the user's or a team's). As listAggregate reads them and the permission
 * lists attach them (server/attached-reads.ts).
 */
export function aggregatePageSelects(ctx: Ctx, target: ListedTarget, role: Role | undefined, request: PageRequest) {
  const effective = effectiveRole(target);
  const where = and(
    eq(members.organizationId, organizationOf(target)),
    // Written in SQL: a grant's statement on PGlite takes no boolean parameter (server/db/sql-literal.mjs).
    not(members.disabled),
    sql`${effective} IS NOT NULL`,
    role === undefined ? undefined : sql`${effective} = ${role}`,
  );
  const page = directedPage([{ column: members.userId }], 'asc', request);
  const total = ctx.db.select({ n: count() }).from(members).where(where);
  const rows = ctx.db
    .select({
      member: members,
      user: users,
      role: effective,
      ...(target.kind === 'site' ? { fromTeams: memberGranted(target, true) } : {}),
      total: totalField(total),
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(where, page.condition))
    .orderBy(...page.orderBy)
    .limit(literalLimit(page.fetch));
  return { page, rows, total };
}

/** One page of aggregatePageSelects; `attached` as listUserGrants's. */
export async function listAggregate(ctx: Ctx, target: ListedTarget, role: Role | undefined, request: PageRequest, attached?: Record<string, unknown>) {
  const { page, rows, total } = aggregatePageSelects(ctx, target, role, request);
  const { items, totalCount } = await pageOf(attached, 'aggregate', page, rows, total);
  return { rows: items, page, totalCount };
}

/** The content aggregate list: `{ permission, user }` items. */
export async function listContentAggregate(ctx: Ctx, target: ListedTarget, role: Role | undefined, request: PageRequest, attached?: Record<string, unknown>) {
  const { rows, page, totalCount } = await listAggregate(ctx, target, role, request, attached);
  return finishPage(rows, page.limit, totalCount, (row) => [row.member.userId], (row) => ({ permission: row.role as Role, user: toUser(row.user, ctx.urls) }));
}

/** The site aggregate list: each member's effective role, where it comes from, and whether they are disabled. */
export async function listSiteAggregate(ctx: Ctx, target: GrantTarget, role: Role | undefined, request: PageRequest, attached?: Record<string, unknown>) {
  const { rows, page, totalCount } = await listAggregate(ctx, target, role, request, attached);
  return finishPage(rows, page.limit, totalCount, (row) => [row.member.userId], (row) => {
    const fromOrganization = row.role === row.member.role;
    const fromTeams = (row as { fromTeams?: string | null }).fromTeams ?? null;
    const origin = fromOrganization
      ? { type: 'organization' as const, organization: target.organizationId }
      : { type: 'site' as const, site: target.id, reason: fromTeams === row.role ? ('team' as const) : ('member' as const) };
    return {
      permission: row.role as Role,
      user: toUser(row.user, ctx.urls),
      origin,
      disabled: row.member.disabled,
      ...(row.member.lastSeenAt && { lastSeenAt: row.member.lastSeenAt.toISOString() }),
    };
  });
}
