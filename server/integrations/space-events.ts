// Events about a space, beside its content (content-events.ts): `space_visibility_updated` when a move or a
// restore changes who may see it, `space_gitsync_started` / `space_gitsync_completed` around a Git Sync
// operation. Recorded in the writer's transaction (the domain events they subscribe to, core-events.ts), so
// an event is recorded with the change or not at all. The recipients are those of `space_content_updated`
// (`contentUpdatedRecipientsSql`): the installations on the space, and those of its organization with
// `space_selection: all`.
import type { Db } from '../db/client.js';
import { recordEvents, type NewEvent } from './events.store.js';

type SpaceEventType = Extract<NewEvent['type'], 'space_visibility_updated' | 'space_gitsync_started' | 'space_gitsync_completed'>;

/** Records the event `type` with `fields` for each recipient (rows of `contentUpdatedRecipientsSql`); returns how many. */
export async function recordSpaceEvent(db: Db, now: Date, recipients: Record<string, unknown>[], spaceId: string, type: SpaceEventType, fields: Record<string, unknown>): Promise<number> {
  await recordEvents(
    db,
    now,
    recipients.map((r) => ({
      integrationName: r.integration_name as string,
      type,
      installationId: r.installation_id as string,
      organizationId: r.organization_id as string,
      fields: { spaceId, ...fields },
    })),
  );
  return recipients.length;
}

