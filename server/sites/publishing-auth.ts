// Visitor authentication of `visitor-auth` sites: the key visitor JWTs are signed with (HS256), who signs them
// (`backend`: `custom`, the owner's backend, or `integration`, the integration with `site:visitor:auth`
// installed on the site, which is given the key: server/integrations/visitor-auth.ts), where a visitor
// without a valid token is sent (fallbackURL, for `custom`) and where one is sent once signed out (logoutURL).
// The published site (server/published/visitor.ts) verifies with the key.
import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { siteOperations } from '../../contract/sites.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { sites } from '../db/schema/index.js';
import { BadRequest } from '../errors.js';
import { VISITOR_AUTH_SCOPE, visitorAuthIntegration } from '../integrations/visitor-auth.js';
import type { SiteRow } from './site-view.js';
import { requireSite } from './structure.js';

type SitePublishingAuth = components['schemas']['SitePublishingAuth'];
type UpdateAuth = z.output<typeof siteOperations.updateSitePublishingAuthById.body>;

/** A new visitor key: 256 random bits, as HS256 asks for. */
export function newVisitorKey(): string {
  return randomBytes(32).toString('base64url');
}

async function toAuth(ctx: Pick<Ctx, 'db'>, site: SiteRow, key: string): Promise<SitePublishingAuth> {
  const integration = await visitorAuthIntegration(ctx.db, site.id);
  return {
    object: 'publishing-auth',
    backend: site.visitorAuthBackend,
    privateKey: key,
    ...(site.visitorAuthFallbackUrl && { fallbackURL: site.visitorAuthFallbackUrl }),
    ...(site.visitorAuthLogoutUrl && { logoutURL: site.visitorAuthLogoutUrl }),
    ...(integration && { integration: integration.name }),
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
  const site = await requireSite(ctx, org.organization.id, siteId);
  return toAuth(ctx, site, await visitorKey(ctx, site));
}

export async function updatePublishingAuth(ctx: Ctx, org: OrganizationGrant, siteId: string, body: UpdateAuth): Promise<SitePublishingAuth> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  const key = await visitorKey(ctx, site);
  // An integration backend needs the integration: without it, no visitor could ever sign in.
  if (body.backend === 'integration' && !(await visitorAuthIntegration(ctx.db, site.id))) {
    throw new BadRequest(
      `Invalid request: body.backend: "integration" needs an integration with the ${VISITOR_AUTH_SCOPE} scope installed on the site; install one on it first (POST /integrations/{integrationName}/installations/{installationId}/sites)`,
    );
  }
  if (body.fallbackURL === undefined && body.logoutURL === undefined && body.backend === site.visitorAuthBackend) return toAuth(ctx, site, key);
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
  return toAuth(ctx, row, key);
}

/** Replaces the key: tokens signed with the old one stop working from the next request. */
export async function regeneratePublishingAuth(ctx: Ctx, org: OrganizationGrant, siteId: string): Promise<SitePublishingAuth> {
  const site = await requireSite(ctx, org.organization.id, siteId);
  const key = newVisitorKey();
  const [row] = await ctx.db.update(sites).set({ visitorAuthKey: key, updatedAt: ctx.now() }).where(eq(sites.id, site.id)).returning();
  return toAuth(ctx, row, key);
}
