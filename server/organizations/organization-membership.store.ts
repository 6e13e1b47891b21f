// Organizations beyond reading and settings: creation, joining by email domain, the email-domain
// lookup and link invites.
import { and, eq, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { organizationOperations } from '../../contract/organizations.js';
import type { OrganizationGrant } from '../auth/access.js';
import { asRole, organizationPermissions } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { members, organizationInvites, organizations, users } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { toOrganization, type Organization } from './organizations.store.js';
import { checkJoinByEmailDomain } from '../sso/join-policy.js';
import { createDefaultSite } from './default-site.js';

type CreateOrganization = z.output<typeof organizationOperations.createOrganization.body>;

/** Email domains compare without case. */
const normalizeDomains = (domains: string[] | undefined) => [...new Set((domains ?? []).map((d) => d.trim().toLowerCase()))];

type CreateOrganizationQuery = z.output<typeof organizationOperations.createOrganization.query>;

/**
 * Creates an organization with the caller as its admin; with `withDefaultSite`, its first docs site too
 * (default-site.ts), in the same transaction.
 */
export async function createOrganization(ctx: Ctx, body: CreateOrganization, query: CreateOrganizationQuery = {}): Promise<Organization> {
  const now = ctx.now();
  const row = await ctx.transaction(async (tx) => {
    const [organization] = await tx.db
      .insert(organizations)
      .values({
        id: newId('org', now.getTime()),
        title: body.title.trim(),
        emailDomains: normalizeDomains(body.emailDomains),
        mergeRules: { type: 'none' },
        createdAt: now,
      })
      .returning();
    await tx.db.insert(members).values({ organizationId: organization.id, userId: ctx.caller.userId, role: 'admin', joinedAt: now });
    if (!query.withDefaultSite) return organization;
    await createDefaultSite(tx, { organization, role: 'admin' }, body.onboardingPreferences, query.openapiUrl);
    return (await tx.db.select().from(organizations).where(eq(organizations.id, organization.id)))[0];
  });
  return toOrganization(row, 'admin', ctx.urls);
}

/** The domain of an email address, lower-cased. */
function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Makes the caller a member with the organization's default role when its email domain is allowed.
 * Account emails are set by administrators (there is no self sign-up), so they count as verified.
 * Already a member: nothing to do. Throws NotFound for an unknown organization, BadRequest otherwise.
 */
export async function joinOrganization(ctx: Ctx, organizationId: string): Promise<void> {
  const [org] = await ctx.db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw new NotFound(`Organization ${organizationId} not found`);
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, ctx.caller.userId));
  const [already] = await ctx.db
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, ctx.caller.userId)));
  if (already) return;
  await checkJoinByEmailDomain(ctx.db, org, ctx.caller.userId);
  const domain = domainOf(user.email);
  if (!normalizeDomains(org.emailDomains).includes(domain)) {
    throw new BadRequest(`Invalid request: your email domain ${domain} is not one this organization lets join`);
  }
  await ctx.db
    .insert(members)
    .values({ organizationId, userId: ctx.caller.userId, role: asRole(org.defaultRole), joinedAt: ctx.now() })
    .onConflictDoNothing();
}

/**
 * The organizations allowing an email domain, as the caller sees them (permissions from its role where
 * it is a member, all false otherwise), in creation order. So that nobody can list the organizations of
 * any domain, a caller sees only those it is a member of, unless the domain is its own email's.
 */
export async function organizationsForEmailDomain(ctx: Ctx, emailDomain: string): Promise<{ organizations: Organization[] }> {
  const domain = emailDomain.trim().toLowerCase();
  // The caller's email domain as domainOf takes it (after the last `@`, lowercased), read in the same statement.
  const ownDomain = sql`(SELECT lower(substring(u.email from '[^@]*$')) FROM users u WHERE u.id = ${ctx.caller.userId}) = ${domain}`;
  const rows = await ctx.db
    .select({ organization: organizations, role: members.role, isMember: sql<boolean>`${members.userId} IS NOT NULL` })
    .from(organizations)
    .leftJoin(members, and(eq(members.organizationId, organizations.id), eq(members.userId, ctx.caller.userId)))
    .where(and(sql`${organizations.emailDomains} @> ${JSON.stringify([domain])}::jsonb`, or(ownDomain, sql`${members.userId} IS NOT NULL`)))
    .orderBy(organizations.id)
    .limit(1000);
  return {
    organizations: rows.map((r) => {
      const view = toOrganization(r.organization, asRole(r.role), ctx.urls);
      return r.isMember ? view : { ...view, permissions: organizationPermissions(null, false) };
    }),
  };
}

/** Revokes a link invite of the organization; nothing when it does not exist. */
export async function deleteInvite(ctx: Ctx, org: OrganizationGrant, inviteId: string): Promise<void> {
  await ctx.db.delete(organizationInvites).where(and(eq(organizationInvites.id, inviteId), eq(organizationInvites.organizationId, org.organization.id)));
}
