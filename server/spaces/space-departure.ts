// What a space leaves behind when it moves to another organization (transferSpace, transferCollection): the
// old organization's sites stop publishing it, and the platform areas let go of it through the `spaces left
// organization` domain event (integrations: the old organization's installations on it and its events not
// yet delivered to them). Run in the transfer's transaction, so no reader and no delivery sees the space in
// two organizations.
import { and, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { sites, siteSpaces } from '../db/schema/index.js';
import { publish } from '../events/domain-events.js';
import { repairDefaultsOfSites } from '../sites/structure.js';

/** Removes what `oldOrganizationId` holds of the spaces `spaceIds` (site spaces, and through the event the rest). */
export async function leaveOrganization(tx: Ctx, spaceIds: string[], oldOrganizationId: string): Promise<void> {
  if (spaceIds.length === 0) return;
  const oldSites = tx.db.select({ id: sites.id }).from(sites).where(eq(sites.organizationId, oldOrganizationId));
  const removed = await tx.db
    .delete(siteSpaces)
    .where(and(inArray(siteSpaces.spaceId, spaceIds), inArray(siteSpaces.siteId, oldSites)))
    .returning({ siteId: siteSpaces.siteId });
  // The sites that published it choose new default site spaces where it was one.
  await repairDefaultsOfSites(tx, [...new Set(removed.map((r) => r.siteId))]);
  await publish(tx, 'spaces left organization', { organizationId: oldOrganizationId, spaceIds });
}
