import { and, eq, inArray } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { requireMembership, type Membership } from '../auth/membership.js';
import { atLeast, isRole, organizationPermissions } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { whenUniqueViolation } from '../db/errors.js';
import { members, organizations } from '../db/schema.js';
import { keysetPage, listBody, type PageRequest } from '../db/paginate.js';
import { BadRequest, Conflict, Forbidden } from '../http/errors.js';
import type { Urls } from '../http/urls.js';

export type Organization = components['schemas']['Organization'];
export type OrganizationUpdate = components['schemas']['UpdateOrganization'];
type OrganizationRow = typeof organizations.$inferSelect;

export function toOrganization(row: OrganizationRow, membership: Membership | undefined, urls: Urls): Organization {
  return {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    emailDomains: row.emailDomains,
    ...(row.hostname && { hostname: row.hostname }),
    ...(row.type && { type: row.type as Organization['type'] }),
    ...(row.useCase && { useCase: row.useCase as Organization['useCase'] }),
    ...(row.communityType && { communityType: row.communityType as Organization['communityType'] }),
    defaultRole: row.defaultRole as Organization['defaultRole'],
    ...(row.defaultContentSite && { defaultContent: { type: 'site' as const, site: row.defaultContentSite } }),
    sso: row.sso,
    ai: row.ai,
    inviteLinks: row.inviteLinks,
    plan: row.plan as Organization['plan'],
    mergeRules: row.mergeRules as Organization['mergeRules'],
    urls: {
      location: urls.api(`/orgs/${row.id}`),
      app: urls.app(`/o/${row.id}`),
      ...(row.logoUrl && { logo: row.logoUrl }),
    },
    permissions: organizationPermissions(membership?.role ?? null, membership !== undefined),
  };
}

async function loadOrganization(ctx: Ctx, organizationId: string): Promise<OrganizationRow> {
  const [row] = await ctx.db.select().from(organizations).where(eq(organizations.id, organizationId));
  return row;
}

/** Organizations the caller is a member of, in creation order. */
export async function listOrganizationsForCaller(ctx: Ctx, page: PageRequest) {
  const memberOf = ctx.db
    .select({ id: members.organizationId })
    .from(members)
    .where(and(eq(members.userId, ctx.caller.userId), eq(members.disabled, false)));
  const result = await keysetPage(ctx.db, organizations, inArray(organizations.id, memberOf), [organizations.id], page);
  // The caller's roles in the organizations of this page only, for their permissions.
  const pageIds = result.rows.map((row) => row.id);
  const roles =
    pageIds.length === 0
      ? []
      : await ctx.db
          .select({ organizationId: members.organizationId, role: members.role })
          .from(members)
          .where(and(eq(members.userId, ctx.caller.userId), inArray(members.organizationId, pageIds)));
  const roleOf = new Map(roles.map((r) => [r.organizationId, isRole(r.role) ? r.role : null]));
  return listBody(result, (row) => toOrganization(row, { organizationId: row.id, role: roleOf.get(row.id) ?? null }, ctx.urls));
}

/** An organization the caller belongs to; throws NotFound otherwise. */
export async function getOrganization(ctx: Ctx, organizationId: string): Promise<Organization> {
  const membership = await requireMembership(ctx.db, organizationId, ctx.caller.userId);
  return toOrganization(await loadOrganization(ctx, organizationId), membership, ctx.urls);
}

/** Applies the given settings; needs admin. Throws BadRequest for an unknown default site, Conflict for a taken hostname. */
export async function updateOrganization(ctx: Ctx, organizationId: string, update: OrganizationUpdate): Promise<Organization> {
  const membership = await requireMembership(ctx.db, organizationId, ctx.caller.userId);
  if (!atLeast(membership.role, 'admin')) throw new Forbidden('Only organization admins can change its settings');
  if (update.defaultContent) {
    // Sites are not stored yet, so no site id can be valid default content.
    throw new BadRequest(`Invalid request: body.defaultContent.site: site ${update.defaultContent.site} not found in this organization`);
  }
  const { logo, defaultContent: _none, ...columns } = update;
  const changes = { ...columns, ...(logo !== undefined && { logoUrl: logo }) };
  if (Object.keys(changes).length > 0) {
    await ctx.db
      .update(organizations)
      .set(changes)
      .where(eq(organizations.id, organizationId))
      .catch(whenUniqueViolation(() => new Conflict(`Hostname ${update.hostname} is already used by another organization`)));
  }
  return toOrganization(await loadOrganization(ctx, organizationId), membership, ctx.urls);
}
