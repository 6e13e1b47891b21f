// What a space leaves behind when it moves to another organization (transferSpace, transferCollection): the
// old organization's sites stop publishing it, the old organization's integrations stop being installed on
// it, and events about it not yet delivered to them are not delivered. Run in the transfer's transaction, so
// no reader and no delivery sees the space in two organizations.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { integrationEvents, integrationInstallations, integrationSpaceInstallations, sites, siteSpaces } from '../db/schema/index.js';
import { logLine } from '../integrations/events.store.js';
import { repairDefaultsOfSites } from '../sites/structure.js';

/** Removes what `oldOrganizationId` holds of the spaces `spaceIds` (site spaces, space installations, pending events). */
export async function leaveOrganization(tx: Ctx, spaceIds: string[], oldOrganizationId: string): Promise<void> {
  if (spaceIds.length === 0) return;
  const oldSites = tx.db.select({ id: sites.id }).from(sites).where(eq(sites.organizationId, oldOrganizationId));
  const removed = await tx.db
    .delete(siteSpaces)
    .where(and(inArray(siteSpaces.spaceId, spaceIds), inArray(siteSpaces.siteId, oldSites)))
    .returning({ siteId: siteSpaces.siteId });
  // The sites that published it choose new default site spaces where it was one.
  await repairDefaultsOfSites(tx, [...new Set(removed.map((r) => r.siteId))]);

  const oldInstallations = tx.db.select({ id: integrationInstallations.id }).from(integrationInstallations).where(eq(integrationInstallations.organizationId, oldOrganizationId));
  await tx.db
    .delete(integrationSpaceInstallations)
    .where(and(inArray(integrationSpaceInstallations.spaceId, spaceIds), inArray(integrationSpaceInstallations.installationId, oldInstallations)));

  const line = logLine(tx.now(), 'info', 'Not delivered: the space moved to another organization before delivery');
  await tx.db
    .update(integrationEvents)
    .set({ status: 'failed', logs: sql`${integrationEvents.logs} || ${JSON.stringify([line])}::jsonb` })
    .where(
      and(
        eq(integrationEvents.status, 'pending'),
        eq(integrationEvents.organizationId, oldOrganizationId),
        inArray(sql`${integrationEvents.payload}->>'spaceId'`, spaceIds),
      ),
    );
}
