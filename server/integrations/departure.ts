// What integrations let go of when spaces move to another organization: the old organization's
// installations stop being installed on them, and events about them not yet delivered to those
// installations are not delivered. Run in the transfer's transaction (the `spaces left organization`
// domain event), so no delivery sees a space in two organizations.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { integrationEvents, integrationInstallations, integrationSpaceInstallations } from '../db/schema/index.js';
import { logLine } from './events.store.js';

/** Uninstalls the old organization's installations from `spaceIds` and fails their pending events about them. */
export async function releaseSpaces(tx: Ctx, spaceIds: string[], oldOrganizationId: string): Promise<void> {
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
