// Organizations: the caller's list, reading and settings. Membership and role are checked by the access
// layer (the grant) before these run.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { organizationOperations } from '../../contract/organizations.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant, OrganizationRow } from '../auth/access.js';
import { asRole, organizationPermissions, type Role } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { whenUniqueViolation } from '../db/errors.js';
import { keysetPage, listBody, type PageRequest } from '../db/paginate.js';
import { members, organizations, sites } from '../db/schema/index.js';
import { BadRequest, Conflict } from '../errors.js';
import type { Urls } from '../urls.js';

export type Organization = components['schemas']['Organization'];
export type OrganizationUpdate = z.output<typeof organizationOperations.updateOrganizationById.body>;

/** The API form of an organization, with permissions for a member holding `role` (null: guest). */
export function toOrganization(row: OrganizationRow, role: Role | null, urls: Urls): Organization {
  return {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    emailDomains: row.emailDomains,
    ...(row.hostname && { hostname: row.hostname }),
    // GitBook requires a type; an organization that never chose one is a business organization.
    type: (row.type ?? 'business') as Organization['type'],
    ...(row.useCase && { useCase: row.useCase as Organization['useCase'] }),
    ...(row.communityType && { communityType: row.communityType as Organization['communityType'] }),
    defaultRole: asRole(row.defaultRole),
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
    trial: { status: 'notapplicable', count: 0 },
    permissions: organizationPermissions(role, true),
  };
}

/** Organizations the caller is a member of, in creation order, each with the caller's role, in one query. */
export async function listOrganizationsForCaller(ctx: Ctx, page: PageRequest) {
  const memberOf = ctx.db
    .select({ id: members.organizationId })
    .from(members)
    .where(and(eq(members.userId, ctx.caller.userId), eq(members.disabled, false)));
  const callerRole = sql<string | null>`(SELECT ${members.role} FROM ${members} WHERE ${members.organizationId} = ${organizations.id} AND ${members.userId} = ${ctx.caller.userId})`;
  const result = await keysetPage(ctx.db, organizations, inArray(organizations.id, memberOf), [organizations.id], page, { callerRole });
  return listBody(result, (row) => toOrganization(row, asRole(row.callerRole), ctx.urls));
}

/** The organization of a grant, as the API shows it to the caller. */
export function viewOrganization(ctx: Ctx, grant: OrganizationGrant): Organization {
  return toOrganization(grant.organization, grant.role, ctx.urls);
}

/**
 * Applies the given settings. Throws BadRequest for an unknown default site or a community type of an organization
 * that is not a community, Conflict for a taken hostname.
 */
export async function updateOrganization(ctx: Ctx, grant: OrganizationGrant, update: OrganizationUpdate): Promise<Organization> {
  if (update.defaultContent) {
    const site = update.defaultContent.site;
    const [found] = await ctx.db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, site), eq(sites.organizationId, grant.organization.id)));
    if (!found) throw new BadRequest(`Invalid request: body.defaultContent.site: site ${site} not found in this organization`);
  }
  // communityType describes a community: refused for any other type; a change to business clears it.
  const type = update.type ?? grant.organization.type;
  if (update.communityType !== undefined && type !== 'community') {
    throw new BadRequest(`Invalid request: body.communityType: only for an organization whose type is community (this one's is ${type ?? 'business'})`);
  }
  const changes = {
    title: update.title,
    type: update.type,
    useCase: update.useCase,
    communityType: update.type !== undefined && update.type !== 'community' ? null : update.communityType,
    emailDomains: update.emailDomains,
    hostname: update.hostname,
    defaultRole: update.defaultRole,
    logoUrl: update.logo,
    sso: update.sso,
    ai: update.ai,
    inviteLinks: update.inviteLinks,
    mergeRules: update.mergeRules,
    defaultContentSite: update.defaultContent?.site,
  };
  // An empty update changes nothing (and an UPDATE needs at least one column).
  if (Object.values(changes).every((v) => v === undefined)) return viewOrganization(ctx, grant);
  const [row] = await ctx.db
    .update(organizations)
    .set(changes)
    .where(eq(organizations.id, grant.organization.id))
    .returning()
    .catch(whenUniqueViolation(() => new Conflict(`Hostname ${update.hostname} is already used by another organization`)));
  return toOrganization(row, grant.role, ctx.urls);
}
