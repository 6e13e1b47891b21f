// Installations of integrations in organizations, and their installations on spaces and sites.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { integrationOperations } from '../../contract/integrations.js';
import { requireOrganizationGrant } from '../auth/access.js';
import { spaceCountFields } from '../change-requests/space-counts.js';
import type { Ctx } from '../context.js';
import { keysetPage, listBody, type PageRequest } from '../db/paginate.js';
import { integrationInstallations, integrationSiteInstallations, integrationSpaceInstallations, organizations, sites, spaces } from '../db/schema/index.js';
import { Forbidden } from '../errors.js';
import { newId } from '../ids.js';
import { toSite } from '../sites/site-view.js';
import { toSpace } from '../spaces/space-view.js';
import { recordEvent } from './events.store.js';
import { administeredIntegration, visibleIntegration } from './integration-access.js';
import { toInstallation, type Installation } from './integration-view.js';

type Ops = typeof integrationOperations;
export type SpaceItemsQuery = z.output<Ops['listIntegrationSpaceInstallations']['query']>;
export type SiteItemsQuery = z.output<Ops['listIntegrationSiteInstallations']['query']>;

// Qualified by hand: inside a subquery, an unqualified `id` would be the inner table's.
const spacesOf = sql<number>`(SELECT count(*) FROM integration_space_installations AS isi WHERE isi.installation_id = "integration_installations"."id")`.mapWith(Number);

/**
 * Installs the integration in `organizationId` (admin needed there), or returns the installation it
 * already has there. A new installation starts active, on no space or site yet (`selected`), and emits
 * `installation_setup` in the same transaction. A private integration installs only in its own organization.
 */
export async function installIntegration(ctx: Ctx, name: string, organizationId: string): Promise<Installation> {
  return ctx.transaction(async (tx) => {
    const integration = await visibleIntegration(tx, name);
    await requireOrganizationGrant(tx, organizationId, 'admin');
    if (integration.row.visibility === 'private' && integration.row.organizationId !== organizationId) {
      throw new Forbidden(`The integration ${name} is private to its organization and cannot be installed in another one`);
    }
    const now = tx.now();
    const [created] = await tx.db
      .insert(integrationInstallations)
      .values({
        id: newId('ins', now.getTime()),
        integrationName: name,
        organizationId,
        status: 'active',
        spaceSelection: 'selected',
        siteSelection: 'selected',
        configuration: {},
        externalIds: [],
        createdAt: now,
        updatedAt: now,
      })
      // The unique (integration, organization) index: a concurrent install of the same pair returns the winner's.
      .onConflictDoNothing()
      .returning();
    if (created) {
      await recordEvent(tx.db, now, {
        integrationName: name,
        type: 'installation_setup',
        installationId: created.id,
        organizationId,
        // The payload the description documents: the new state and the one before setup.
        fields: { status: created.status, previous: { status: 'pending', configuration: {} } },
      });
      return toInstallation(tx, created, 0);
    }
    const [existing] = await tx.db
      .select({ row: integrationInstallations, spaces: spacesOf })
      .from(integrationInstallations)
      .where(and(eq(integrationInstallations.integrationName, name), eq(integrationInstallations.organizationId, organizationId)));
    return toInstallation(tx, existing.row, existing.spaces);
  });
}

/** The installations of an integration in creation order, optionally those with an external id (owner admins only). */
export async function listInstallations(ctx: Ctx, name: string, query: PageRequest & { externalId?: string }) {
  await administeredIntegration(ctx, name);
  const where = and(
    eq(integrationInstallations.integrationName, name),
    query.externalId !== undefined ? sql`${query.externalId}::text = ANY(${integrationInstallations.externalIds})` : undefined,
  );
  const page = await keysetPage(ctx.db, integrationInstallations, where, [integrationInstallations.id], query, { spaces: spacesOf });
  return listBody(page, (row) => toInstallation(ctx, row, row.spaces));
}

/**
 * The installations of an integration on spaces, across its installations, in creation order (owner
 * admins only). With `extended`, each space is the Space itself.
 */
export async function listSpaceInstallations(ctx: Ctx, name: string, query: SpaceItemsQuery) {
  await administeredIntegration(ctx, name);
  const t = integrationSpaceInstallations;
  const page = await keysetPage(ctx.db, t, ofIntegration(t, name, query.externalId), [t.id], query);
  const spaceRows = query.extended && page.rows.length > 0 ? await ctx.db.select({ space: spaces, counts: spaceCountFields() }).from(spaces).where(inArray(spaces.id, page.rows.map((r) => r.spaceId))) : [];
  const byId = new Map(spaceRows.map((s) => [s.space.id, { ...s.space, ...s.counts }]));
  return listBody(page, (row) => {
    const space = byId.get(row.spaceId);
    return {
      ...targetInstallationFields(ctx, name, row, `spaces/${row.spaceId}`),
      // The spaces may be in other organizations: their permissions say the caller gets none through this list.
      space: query.extended && space ? toSpace(ctx, space, null) : row.spaceId,
    };
  });
}

/**
 * The installations of an integration on docs sites, across its installations, in creation order (owner
 * admins only). With `extended`, each site is the Site itself (organizations and site-space counts read
 * in one query each for the page).
 */
export async function listSiteInstallations(ctx: Ctx, name: string, query: SiteItemsQuery) {
  await administeredIntegration(ctx, name);
  const t = integrationSiteInstallations;
  const page = await keysetPage(ctx.db, t, ofIntegration(t, name, query.externalId), [t.id], query);
  const siteIds = [...new Set(page.rows.map((r) => r.siteId))];
  const siteRows =
    query.extended && siteIds.length > 0
      ? await ctx.db
          .select({ site: sites, org: organizations, siteSpaces: sql<number>`(SELECT count(*) FROM site_spaces ss WHERE ss.site_id = "sites"."id")`.mapWith(Number) })
          .from(sites)
          .innerJoin(organizations, eq(organizations.id, sites.organizationId))
          .where(inArray(sites.id, siteIds))
      : [];
  const byId = new Map(siteRows.map((r) => [r.site.id, r]));
  return listBody(page, (row) => {
    const found = byId.get(row.siteId);
    return {
      ...targetInstallationFields(ctx, name, row, `sites/${row.siteId}`),
      site: query.extended && found ? toSite(ctx, found.org, found.site, found.siteSpaces) : row.siteId,
    };
  });
}

/** The rows of a per-space or per-site installation table for one integration, optionally with an external id. */
function ofIntegration(t: typeof integrationSpaceInstallations | typeof integrationSiteInstallations, name: string, externalId: string | undefined) {
  return and(eq(t.integrationName, name), externalId !== undefined ? sql`${externalId}::text = ANY(${t.externalIds})` : undefined);
}

/** What a space installation and a site installation share in the API: all but the target itself. */
function targetInstallationFields(
  ctx: Ctx,
  name: string,
  row: { installationId: string; status: string; configuration: Record<string, unknown>; externalIds: string[] },
  target: string,
) {
  const path = `/integrations/${encodeURIComponent(name)}/installations/${row.installationId}/${target}`;
  return {
    integration: name,
    installation: row.installationId,
    status: row.status as Installation['status'],
    configuration: row.configuration,
    externalIds: row.externalIds,
    urls: { location: ctx.urls.api(path), publicEndpoint: ctx.urls.api(`${path}/integration`) },
  };
}
