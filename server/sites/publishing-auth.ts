// Visitor authentication of `visitor-auth` sites: the key visitor JWTs are signed with (HS256), who signs them
// (`backend`: `custom`, the owner's backend, or `integration`, the integration with `site:visitor:auth`
// installed on the site, which is given the key: server/integrations/visitor-auth.ts), where a visitor
// without a valid token is sent (fallbackURL, for `custom`) and where one is sent once signed out (logoutURL).
// The published site (server/published/visitor.ts) verifies with the key.
import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { siteOperations } from '../../contract/sites.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import { rowsOf } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import { sites } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import { VISITOR_AUTH_SCOPE, visitorAuthIntegrationSql } from '../integrations/visitor-auth.js';
import type { SiteRow } from './site-view.js';

type SitePublishingAuth = components['schemas']['SitePublishingAuth'];
type UpdateAuth = z.output<typeof siteOperations.updateSitePublishingAuthById.body>;

/** A new visitor key: 256 random bits, as HS256 asks for. */
export function newVisitorKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The select of the site with the name of the integration that may sign its visitors in (getSitePublishingAuthById attaches it: server/attached-reads.ts). */
export function siteWithSignerSelect(ctx: Ctx, organizationId: string, siteId: string) {
  return ctx.db
    .select({ site: sites, integration: sql<string | null>`(${sql.raw(visitorAuthIntegrationSql('"sites"."id"', 'i.name'))})` })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.organizationId, organizationId)));
}

/**
 * The site, with the name of the integration that may sign its visitors in (one statement, or none when it
 * came with the grant: `attached`); NotFound otherwise.
 */
async function siteWithSigner(ctx: Ctx, organizationId: string, siteId: string, attached?: Record<string, unknown>): Promise<{ site: SiteRow; integration: string | null }> {
  const [row] = await rowsOf(attached, 'site_with_signer', siteWithSignerSelect(ctx, organizationId, siteId));
  if (!row) throw new NotFound(`Site ${siteId} not found`);
  return row;
}

function toAuth(site: SiteRow, key: string, integration: string | null): SitePublishingAuth {
  return {
    object: 'publishing-auth',
    backend: site.visitorAuthBackend,
    privateKey: key,
    ...(site.visitorAuthFallbackUrl && { fallbackURL: site.visitorAuthFallbackUrl }),
    ...(site.visitorAuthLogoutUrl && { logoutURL: site.visitorAuthLogoutUrl }),
    ...(integration && { integration }),
  };
}

/**
 * The site's visitor key. Sites created before keys existed get theirs on first use; the conditional update
 * keeps two first readers from handing out different keys.
 */
export async function visitorKey(ctx: Pick<Ctx, 'db'>, site: Pick<SiteRow, 'id' | 'visitorAuthKey'>): Promise<string> {
  if (site.visitorAuthKey) return site.visitorAuthKey;
  await ctx.db.update(sites).set({ visitorAuthKey: newVisitorKey() }).where(and(eq(sites.id, site.id), isNull(sites.visitorAuthKey)));
  const [row] = await ctx.db.select({ key: sites.visitorAuthKey }).from(sites).where(eq(sites.id, site.id));
  return row!.key!;
}

export async function getPublishingAuth(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<SitePublishingAuth> {
  const { site, integration } = await siteWithSigner(ctx, org.organization.id, siteId, org.attached);
  return toAuth(site, await visitorKey(ctx, site), integration);
}

export async function updatePublishingAuth(ctx: Ctx, org: OrganizationGrant, siteId: string, body: UpdateAuth): Promise<SitePublishingAuth> {
  const { site, integration } = await siteWithSigner(ctx, org.organization.id, siteId);
  const key = await visitorKey(ctx, site);
  // An integration backend needs the integration: without it, no visitor could ever sign in.
  if (body.backend === 'integration' && !integration) {
    throw new BadRequest(
      `Invalid request: body.backend: "integration" needs an integration with the ${VISITOR_AUTH_SCOPE} scope installed on the site; install one on it first (POST /integrations/{integrationName}/installations/{installationId}/sites)`,
    );
  }
  if (body.fallbackURL === undefined && body.logoutURL === undefined && body.backend === site.visitorAuthBackend) return toAuth(site, key, integration);
  const [row] = await ctx.db
    .update(sites)
    .set({
      visitorAuthBackend: body.backend,
      ...(body.fallbackURL !== undefined && { visitorAuthFallbackUrl: body.fallbackURL }),
      ...(body.logoutURL !== undefined && { visitorAuthLogoutUrl: body.logoutURL }),
      updatedAt: ctx.now(),
    })
    .where(eq(sites.id, site.id))
    .returning();
  return toAuth(row, key, integration);
}

/** Replaces the key: tokens signed with the old one stop working from the next request. */
export async function regeneratePublishingAuth(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<SitePublishingAuth> {
  const { site, integration } = await siteWithSigner(ctx, org.organization.id, siteId);
  const key = newVisitorKey();
  const [row] = await ctx.db.update(sites).set({ visitorAuthKey: key, updatedAt: ctx.now() }).where(eq(sites.id, site.id)).returning();
  return toAuth(row, key, integration);
}
