// What search hears of the core areas: a space whose content moved (a merge, a template, an import, a
// translation) or a space made with content (a duplicate) has its index's catch-up queued, in the writer's
// transaction, so a write that commits always has its indexing queued. Subscribed where the app is composed
// (server/subscribers.ts).
import { subscribe } from '../events/domain-events.js';
import { enqueueSpaceIndexingSql } from './index.job.js';

/** Subscribes search to the core areas' events. */
export function subscribeSearch(): void {
  // A write, not a read: the merge and the template run it inside their own statement.
  subscribe('space content updated', {
    name: 'search: index the space',
    write: ({ spaceId }, now) => enqueueSpaceIndexingSql(spaceId, now),
  });
  subscribe('space created with content', {
    name: 'search: index the new space',
    write: ({ spaceId }, now) => enqueueSpaceIndexingSql(spaceId, now),
  });
}
