// The queries of the access layer: each reads a resource together with the caller's membership of its
// organization, their grants on it and what it inherits from its collections, in one round trip. They run on every request, so they
// are plain SQL run straight on the driver (server/db/client.ts `directQuery`), prepared on PostgreSQL. The
// space's, the collection's and the organization's can carry the operation's own read too (attached-read.ts), still in one statement.
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { directQuery, tableRow, type Db } from '../db/client.js';
import { collections, organizations, spaces } from '../db/schema/index.js';
import type { AttachedRead } from '../db/attached-select.js';
import { withAttached } from './attached-read.js';
import { unlessAdmin } from './granted-organization-role.js';
import type { Role } from './roles.js';

/**
 * What content inside the collection `start` inherits for the user `userId`: `{level, granted}` as text[]
 * (the SQL function `collection_chain_access`, migration 0033, whose plans the database caches).
 */
export function chainAccess(start: AnyPgColumn | SQL, userId: string) {
  return sql<string[] | null>`collection_chain_access(${start}, ${userId})`;
}

/** The strongest grant of `userId` or of their teams on each collection row (null: none). */
function grantedOnCollection(userId: string) {
  // The outer columns are written qualified: Drizzle renders a single-table select's columns unqualified,
  // which inside the subquery would name the grant's own.
  return sql<string | null>`(SELECT rank_role(max(role_rank(g.role))) FROM content_grants g WHERE g.collection_id = "collections"."id"
    AND (g.user_id = ${userId} OR g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = "collections"."organization_id" AND tm.user_id = ${userId})))`;
}

/**
 * The role of the member `userId` (organization role `orgRole`, given or read in SQL) on each space row, by
 * the rule of docs/permissions.md (SQL function `space_role_of`): null when they cannot see it.
 */
export function spaceRoleOf(userId: string, orgRole: string | null | SQL) {
  return sql<string | null>`space_role_of(${spaces}, ${userId}, true, ${orgRole}::text)`;
}

/** The role of the member `userId` on each collection row, as `spaceRoleOf` for spaces (`orgRole` given or read in SQL). */
export function collectionRoleOf(userId: string, orgRole: string | null | SQL) {
  return unlessAdmin(orgRole, sql<string | null>`content_role(true, ${orgRole}::text, ${collections.defaultLevel}, ${grantedOnCollection(userId)}, ${chainAccess(collections.parentId, userId)})`);
}

// The caller's membership ($2) of the resource's organization; disabled members count as none.
const membership = (organizationColumn: string) =>
  `LEFT JOIN members m ON m.organization_id = ${organizationColumn} AND m.user_id = $2 AND NOT m.disabled`;

// Grants and inherited levels only matter to a member below admin: an organization admin keeps admin on
// everything (server/auth/roles.ts contentRole), so for them (the hot path's usual caller) neither
// subquery runs.
const belowAdmin = `m.user_id IS NOT NULL AND m.role IS DISTINCT FROM 'admin'`;

// The strongest grant of the caller ($2) or of their teams on the resource, for a member below admin only.
const granted = (column: string, resource: string, organizationColumn: string) =>
  `CASE WHEN ${belowAdmin} THEN (SELECT rank_role(max(role_rank(g.role))) FROM content_grants g WHERE g.${column} = ${resource}
    AND (g.user_id = $2 OR g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.organization_id = ${organizationColumn} AND tm.user_id = $2))) END`;

// What a space inherits: only an in-collection space, only for a member below admin.
const spaceInherited = `CASE WHEN s.visibility = 'in-collection' AND ${belowAdmin} THEN collection_chain_access(s.parent_id, $2) END`;

/**
 * Where the published sites publish the space `spaceColumn`, for its `urls.published` (server/sites/
 * space-published-url.ts): each site space of a published site, as [site id, basename, hostname, proxy,
 * visibility, share key, organization id, organization hostname, path, section path], in the order the URL
 * is looked for (site, then position); null when no published site publishes it. Read with the space so
 * that reading a space is one round trip.
 */
export function publishedPlacesOf(spaceColumn: string): string {
  return `(SELECT json_agg(json_build_array(p.site_id, p.basename, p.hostname, p.proxy, p.visibility, p.share_key, p.org_id, p.org_hostname, p.path, p.section_path)
      ORDER BY p.site_id, p.position, p.id)
    FROM (SELECT y.id AS site_id, y.basename, y.hostname, y.proxy, y.visibility, y.share_key, o.id AS org_id, o.hostname AS org_hostname,
        x.path, z.path AS section_path, x.position, x.id
      FROM site_spaces x JOIN sites y ON y.id = x.site_id AND y.published JOIN organizations o ON o.id = y.organization_id
        LEFT JOIN site_sections z ON z.id = x.section_id
      WHERE x.space_id = ${spaceColumn} ORDER BY y.id, x.position, x.id LIMIT 50) p)`;
}

/** One place where a published site publishes a space (see `publishedPlacesOf`). */
export interface PublishedPlace {
  site: { id: string; basename: string | null; hostname: string | null; proxy: string | null; visibility: string; shareKey: string; published: boolean };
  organization: { id: string; hostname: string | null };
  path: string;
  sectionPath: string | null;
}

/** The places `publishedPlacesOf` read: none when it read null. */
export function publishedPlacesFrom(raw: unknown): PublishedPlace[] {
  if (!Array.isArray(raw)) return [];
  return (raw as [string, string | null, string | null, string | null, string, string, string, string | null, string, string | null][]).map(
    ([id, basename, hostname, proxy, visibility, shareKey, orgId, orgHostname, path, sectionPath]) => ({
      site: { id, basename, hostname, proxy, visibility, shareKey, published: true },
      organization: { id: orgId, hostname: orgHostname },
      path,
      sectionPath,
    }),
  );
}

/**
 * What a Space answer needs besides the row of `spaces s`: its counters and where it is published
 * (read back with `spaceAnswerOf`).
 */
export const spaceAnswerColumns = `(SELECT ARRAY[count(*), count(*) FILTER (WHERE x.status = 'open'), count(*) FILTER (WHERE x.status = 'draft')]::int[]
        FROM change_requests x WHERE x.space_id = s.id) AS change_request_counts,
      (SELECT count(*)::int FROM comments x WHERE x.space_id = s.id AND x.status = 'open') AS comments,
      ${publishedPlacesOf('s.id')} AS published_on`;

/** The counters and published places `spaceAnswerColumns` read. */
export function spaceAnswerOf(raw: Record<string, unknown>) {
  // All, open, draft: one scan of the space's change requests rather than three.
  const [changeRequests, changeRequestsOpen, changeRequestsDraft] = (raw.change_request_counts as number[]).map(Number);
  return {
    counts: {
      changeRequests,
      changeRequestsOpen,
      changeRequestsDraft,
      comments: Number(raw.comments),
    },
    publishedOn: publishedPlacesFrom(raw.published_on),
  };
}

/** The space grant query, with `columns` after the grant's and `join` after its FROM (attached-read.ts). */
function spaceQuery(columns: string, join = ''): string {
  return `SELECT s.*, m.role AS member_role, m.user_id IS NOT NULL AS is_member,
      ${granted('space_id', 's.id', 's.organization_id')} AS granted, ${spaceInherited} AS inherited${columns}
    FROM spaces s ${membership('s.organization_id')}${join} WHERE s.id = $1`;
}

/** The organization grant query, with `columns` and `join` as spaceQuery's. */
function organizationQuery(columns: string, join = ''): string {
  return `SELECT o.*, m.role AS member_role, m.user_id IS NOT NULL AS is_member${columns}
    FROM organizations o ${membership('o.id')}${join} WHERE o.id = $1`;
}

/** The organization grant query of an operation on its site $3, with `columns` and `join` as spaceQuery's. */
function organizationSiteQuery(columns: string, join = ''): string {
  return `SELECT o.*, m.role AS member_role, m.user_id IS NOT NULL AS is_member,
      ${granted('site_id', '$3 AND g.organization_id = o.id', 'o.id')} AS granted${columns}
    FROM organizations o ${membership('o.id')}${join} WHERE o.id = $1`;
}

/**
 * The organization grant query of the site $1's organization (for an operation that names the site, not its
 * organization), with `columns` and `join` as spaceQuery's: one row always, `site_organization_id` null when
 * there is no such site (and the organization's columns null with it).
 */
function siteOrganizationQuery(columns: string, join = ''): string {
  return `SELECT o.*, m.role AS member_role, m.user_id IS NOT NULL AS is_member, x.site_organization_id${columns}
    FROM (SELECT (SELECT st.organization_id FROM sites st WHERE st.id = $1) AS site_organization_id) x
      LEFT JOIN organizations o ON o.id = x.site_organization_id ${membership('o.id')}${join}`;
}

/** The collection grant query, with `columns` and `join` as spaceQuery's. */
function collectionQuery(columns: string, join = ''): string {
  return `SELECT c.*, m.role AS member_role, m.user_id IS NOT NULL AS is_member,
      ${granted('collection_id', 'c.id', 'c.organization_id')} AS granted,
      CASE WHEN ${belowAdmin} THEN collection_chain_access(c.parent_id, $2) END AS inherited${columns}
    FROM collections c ${membership('c.organization_id')}${join} WHERE c.id = $1`;
}

const queries = {
  organization: organizationQuery(''),
  collection: collectionQuery(''),
  // Only the row: for the operations that do not answer a Space (a change request's write, a comment…).
  space: spaceQuery(''),
  // With the counters a Space shows, so reading a space stays one round trip.
  spaceWithCounters: spaceQuery(`,\n      ${spaceAnswerColumns}`),
  // A site with the caller's membership and grant on it, for the operations on `{siteId}`.
  organizationSite: organizationSiteQuery(''),
};


async function readOne(db: Db, kind: keyof typeof queries, id: string, userId: string, ...more: string[]) {
  const [raw] = await directQuery(db, `grant_${kind}`, queries[kind], [id, userId, ...more]);
  return raw;
}

/**
 * SQL over the organization grant query's row `g`: the caller is a member with at least `required` (on the
 * site of the grant, `onSite`: their organization role raised by their grants there, admin keeping admin), the
 * rule access.ts organizationGrant applies in code. What a write attached to the grant's statement is made under.
 */
export function organizationRuleSql(required: Role | 'guest', onSite: boolean): string {
  // The role is one of the contract's (a plain word), never a value from a request.
  if (!/^[a-z]+$/.test(required)) throw new Error(`Not a role: ${required}`);
  if (required === 'guest') return 'g.is_member';
  const role = onSite ? `(g.member_role = 'admin' OR GREATEST(role_rank(g.member_role), role_rank(g.granted)) >= role_rank('${required}'))` : `role_rank(g.member_role) >= role_rank('${required}')`;
  return `g.is_member AND ${role}`;
}

/**
 * The organization grant query (on its site when `siteId`) with `read` attached, its parameters after the
 * grant's, and its write when `required` says whom it is made for.
 */
async function readOrganizationWith(db: Db, id: string, userId: string, siteId: string | undefined, read: AttachedRead, required?: Role | 'guest') {
  const allowed = required && organizationRuleSql(required, siteId !== undefined);
  const { name, text, params } =
    siteId === undefined
      ? withAttached('grant_organization', organizationQuery, read, 3, allowed)
      : withAttached('grant_organizationSite', organizationSiteQuery, read, 4, allowed);
  const [raw] = await directQuery(db, name, text, siteId === undefined ? [id, userId, ...params] : [id, userId, siteId, ...params]);
  return raw;
}

/**
 * SQL over the space grant query's row `g`: the caller's role on the space (content_role, the rule access.ts
 * spaceGrant applies in code) is at least `rule.role`, on a live space unless `rule.deleted`. What a write
 * attached to the grant's statement is made under (attached-read.ts).
 */
export function spaceRuleSql(rule: { role: Role; deleted?: boolean }): string {
  // The role is one of the contract's (a plain word), never a value from a request.
  if (!/^[a-z]+$/.test(rule.role)) throw new Error(`Not a role: ${rule.role}`);
  const live = rule.deleted === true ? '' : 'g.deleted_at IS NULL AND ';
  return `${live}role_rank(content_role(g.is_member, g.member_role, g.default_level, g.granted, g.inherited)) >= role_rank('${rule.role}')`;
}

/**
 * The space grant query with `read` attached (its parameters after the space's id and the user's), and its
 * write when `rule` says whom it is made for.
 */
async function readSpaceWith(db: Db, id: string, userId: string, withCounters: boolean, read: AttachedRead, rule?: { role: Role; deleted?: boolean }) {
  const kind = withCounters ? 'grant_spaceWithCounters' : 'grant_space';
  const counters = withCounters ? `,\n      ${spaceAnswerColumns}` : '';
  const { name, text, params } = withAttached(kind, (columns, join) => spaceQuery(counters + columns, join), read, 3, rule && spaceRuleSql(rule));
  const [raw] = await directQuery(db, name, text, [id, userId, ...params]);
  return raw;
}

/** The ingredients of a role on content as the grant queries read them (server/auth/access.ts RoleBasis). */
function basisOf(raw: Record<string, unknown>) {
  return {
    memberRole: raw.member_role as string | null,
    isMember: raw.is_member === true,
    granted: raw.granted as string | null,
    inherited: raw.inherited as string[] | null,
  };
}

/**
 * An organization with the caller's membership; undefined when it does not exist. `attach`, what the
 * operation reads besides (attached-read.ts), comes back as `attached`, with what its write wrote when
 * `required` (the operation's rule) is given: it writes only for a caller the rule lets through.
 */
export async function readOrganizationGrant(db: Db, id: string, userId: string, attach?: AttachedRead, required?: Role | 'guest') {
  const raw = attach ? await readOrganizationWith(db, id, userId, undefined, attach, required) : await readOne(db, 'organization', id, userId);
  return (
    raw && {
      organization: tableRow(organizations, raw),
      memberRole: raw.member_role as string | null,
      isMember: raw.is_member === true,
      attached: attach ? raw : undefined,
    }
  );
}

/** An organization with the caller's membership and their (or their teams') grant on its site `siteId`; `attach` and `required` as readOrganizationGrant's. */
export async function readOrganizationSiteGrant(db: Db, id: string, userId: string, siteId: string, attach?: AttachedRead, required?: Role | 'guest') {
  const raw = attach ? await readOrganizationWith(db, id, userId, siteId, attach, required) : await readOne(db, 'organizationSite', id, userId, siteId);
  return (
    raw && {
      organization: tableRow(organizations, raw),
      memberRole: raw.member_role as string | null,
      isMember: raw.is_member === true,
      siteGranted: raw.granted as string | null,
      attached: attach ? raw : undefined,
    }
  );
}

/**
 * The organization of the site `siteId` with the caller's membership, `attach` and `required` as
 * readOrganizationGrant's; no organization when there is no such site (its `attached` comes all the same).
 */
export async function readSiteOrganizationGrant(db: Db, siteId: string, userId: string, attach: AttachedRead, required: Role | 'guest') {
  const { name, text, params } = withAttached('grant_siteOrganization', siteOrganizationQuery, attach, 3, organizationRuleSql(required, false));
  const [raw] = await directQuery(db, name, text, [siteId, userId, ...params]);
  return {
    organization: raw.site_organization_id === null ? undefined : tableRow(organizations, raw),
    memberRole: raw.member_role as string | null,
    isMember: raw.is_member === true,
    attached: raw,
  };
}

/** The collection grant query with `read` attached (its parameters after the collection's id and the user's). */
async function readCollectionWith(db: Db, id: string, userId: string, read: AttachedRead) {
  const { name, text } = withAttached('grant_collection', collectionQuery, read, 3);
  const [raw] = await directQuery(db, name, text, [id, userId, ...read.params]);
  return raw;
}

/**
 * A collection with the caller's organization role and the levels of the collections around it; `attach`
 * as readOrganizationGrant's.
 */
export async function readCollectionGrant(db: Db, id: string, userId: string, attach?: AttachedRead) {
  const raw = attach ? await readCollectionWith(db, id, userId, attach) : await readOne(db, 'collection', id, userId);
  return raw && { collection: tableRow(collections, raw), ...basisOf(raw), attached: attach ? raw : undefined };
}

/**
 * A space with the caller's organization role and the levels of its collections when in-collection;
 * `withCounters` (the operations answering a Space) also reads its counters and where published sites
 * publish it, which the other operations would only pay for; `attach`, what the operation reads besides
 * (attached-read.ts), comes back as `attached`, with what its write wrote when `rule` (the operation's access
 * rule) is given: it writes only for a caller the rule lets through.
 */
export async function readSpaceGrant(db: Db, id: string, userId: string, withCounters = true, attach?: AttachedRead, rule?: { role: Role; deleted?: boolean }) {
  const raw = attach ? await readSpaceWith(db, id, userId, withCounters, attach, rule) : await readOne(db, withCounters ? 'spaceWithCounters' : 'space', id, userId);
  if (!raw) return undefined;
  const found = { space: tableRow(spaces, raw), ...basisOf(raw), attached: attach ? raw : undefined };
  if (!withCounters) return { ...found, counts: undefined, publishedOn: undefined };
  return { ...found, ...spaceAnswerOf(raw) };
}
