// Installations of integrations in organizations (their installations on spaces and sites are in
// target-installations.store.ts).
import { and, eq, sql } from 'drizzle-orm';
import { requireOrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { attachListPage, attachSelect, rowsOf } from '../db/attached-select.js';
import { keysetPageSelects, listBody, readKeysetPage, type PageRequest } from '../db/paginate.js';
import { integrationInstallations } from '../db/schema/index.js';
import { Forbidden } from '../errors.js';
import { newId } from '../ids.js';
import { checkConfiguration } from './configuration.js';
import { recordEvent } from './events.store.js';
import { administeredIntegrationWith, visibleIntegration } from './integration-access.js';
import { installationGrant, readableInstallationWith, readInstallationGrant } from './installation-access.js';
import { toInstallation, type Installation } from './integration-view.js';
import { spacesCount } from './target-installations.store.js';

const spacesOf = spacesCount();

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

/** The installations of an integration in creation order, optionally those with an external id (owner admins only), read with its grant. */
export async function listInstallations(ctx: Ctx, name: string, query: PageRequest & { externalId?: string }) {
  const where = and(
    eq(integrationInstallations.integrationName, name),
    query.externalId !== undefined ? sql`${query.externalId}::text = ANY(${integrationInstallations.externalIds})` : undefined,
  );
  const selects = keysetPageSelects(ctx.db, integrationInstallations, where, [integrationInstallations.id], query, { spaces: spacesOf });
  const { attached } = await administeredIntegrationWith(ctx, name, attachListPage('installations', selects));
  const page = await readKeysetPage(attached, 'installations', selects);
  return listBody(page, (row) => toInstallation(ctx, row, row.spaces));
}

/** One installation of the integration (admins of its organization or of the integration's owner), read with its grant. */
export async function getInstallation(ctx: Ctx, name: string, installationId: string): Promise<Installation> {
  const select = installationRowSelect(ctx, installationId);
  const { attached } = await readableInstallationWith(ctx, name, installationId, attachSelect('installation', select));
  const [found] = await rowsOf(attached, 'installation', select);
  return toInstallation(ctx, found.row, found.spaces);
}

export interface InstallationUpdate {
  configuration?: Record<string, unknown>;
  externalIds?: string[];
  space_selection?: 'all' | 'selected';
  site_selection?: 'all' | 'selected';
}

/**
 * Changes an installation's settings (admins of its organization). A change of configuration or of a
 * selection emits `installation_setup` with the state before it; external ids alone emit nothing.
 */
export async function updateInstallation(ctx: Ctx, name: string, installationId: string, update: InstallationUpdate): Promise<Installation> {
  return ctx.transaction(async (tx) => {
    const { integration, installation } = await installationGrant(tx, name, installationId, 'manage', true);
    const configuration = update.configuration && checkConfiguration(integration.configurations, 'account', update.configuration);
    const now = tx.now();
    const [updated] = await tx.db
      .update(integrationInstallations)
      .set({
        ...(configuration && { configuration }),
        ...(update.externalIds && { externalIds: [...new Set(update.externalIds)] }),
        ...(update.space_selection && { spaceSelection: update.space_selection }),
        ...(update.site_selection && { siteSelection: update.site_selection }),
        updatedAt: now,
      })
      .where(eq(integrationInstallations.id, installationId))
      .returning();
    const setupChanged =
      configuration !== undefined ||
      (update.space_selection !== undefined && update.space_selection !== installation.spaceSelection) ||
      (update.site_selection !== undefined && update.site_selection !== installation.siteSelection);
    if (setupChanged) {
      await recordEvent(tx.db, now, {
        integrationName: name,
        type: 'installation_setup',
        installationId,
        organizationId: installation.organizationId,
        fields: { status: updated.status, previous: { status: installation.status, configuration: installation.configuration } },
      });
    }
    return readInstallation(tx, installationId);
  });
}

/**
 * Removes an installation with its installations on spaces and sites (admins of its organization) and
 * emits `installation_deleted` with its last configuration. Nothing to do when it does not exist or the
 * caller cannot see it (the caller gets 204 anyway).
 */
export async function uninstallInstallation(ctx: Ctx, name: string, installationId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    if (!(await readInstallationGrant(tx, name, installationId))) return;
    const { installation } = await installationGrant(tx, name, installationId, 'manage', true);
    // Recorded first: the event's reference to the installation is cleared by the delete (the payload keeps its id).
    await recordEvent(tx.db, tx.now(), {
      integrationName: name,
      type: 'installation_deleted',
      installationId,
      organizationId: installation.organizationId,
      fields: { previous: { configuration: installation.configuration } },
    });
    await tx.db.delete(integrationInstallations).where(eq(integrationInstallations.id, installationId));
  });
}

/** The select of an installation with the number of spaces it is on. */
function installationRowSelect(ctx: Ctx, installationId: string) {
  return ctx.db.select({ row: integrationInstallations, spaces: spacesOf }).from(integrationInstallations).where(eq(integrationInstallations.id, installationId));
}

async function readInstallation(ctx: Ctx, installationId: string): Promise<Installation> {
  const [found] = await installationRowSelect(ctx, installationId);
  return toInstallation(ctx, found.row, found.spaces);
}
