// What integrations hear of the core areas: the domain events (server/events/domain-events.ts) they turn
// into integration events for the installations on a space, and the clean-up when spaces leave an
// organization. Subscribed where the app is composed (server/subscribers.ts).
import { subscribe } from '../events/domain-events.js';
import { contentUpdatedRecipientsSql, notifyContentUpdated } from './content-events.js';
import { releaseSpaces } from './departure.js';
import { recordSpaceEvent } from './space-events.js';

/** Subscribes integrations to the core areas' events. */
export function subscribeIntegrations(): void {
  // The recipients are read by the writer's own statement where it has one (a merge, a template).
  subscribe('space content updated', {
    name: 'integrations: space_content_updated',
    read: ({ spaceId }) => contentUpdatedRecipientsSql(spaceId),
    handle: async (tx, { spaceId, revisionId }, recipients) => void (await notifyContentUpdated(tx, recipients, spaceId, revisionId)),
  });
  subscribe('space visibility updated', {
    name: 'integrations: space_visibility_updated',
    read: ({ spaceId }) => contentUpdatedRecipientsSql(spaceId),
    handle: async (tx, { spaceId, ...fields }, recipients) => void (await recordSpaceEvent(tx.db, tx.now(), recipients, spaceId, 'space_visibility_updated', fields)),
  });
  subscribe('space git sync started', {
    name: 'integrations: space_gitsync_started',
    read: ({ spaceId }) => contentUpdatedRecipientsSql(spaceId),
    handle: async (job, { spaceId, ...fields }, recipients) => void (await recordSpaceEvent(job.db, job.now(), recipients, spaceId, 'space_gitsync_started', fields)),
  });
  subscribe('space git sync completed', {
    name: 'integrations: space_gitsync_completed',
    read: ({ spaceId }) => contentUpdatedRecipientsSql(spaceId),
    handle: async (job, { spaceId, ...fields }, recipients) => void (await recordSpaceEvent(job.db, job.now(), recipients, spaceId, 'space_gitsync_completed', fields)),
  });
  subscribe('spaces left organization', {
    name: 'integrations: uninstall and undelivered events',
    handle: (tx, { spaceIds, organizationId }) => releaseSpaces(tx, spaceIds, organizationId),
  });
}
