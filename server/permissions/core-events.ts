// What permissions hear of the core areas (server/events/domain-events.ts): transferred content keeps only
// the grants that can follow it (grant-cleanup.ts). Subscribed where the app is composed (server/subscribers.ts).
import { subscribe } from '../events/domain-events.js';
import { carryGrantsTo } from './grant-cleanup.js';

/** Subscribes permissions to the core areas' events. */
export function subscribePermissions(): void {
  subscribe('content transferred', {
    name: 'permissions: carry grants',
    handle: (tx, { organizationId, spaceIds, collectionIds }) => carryGrantsTo(tx, organizationId, { spaceIds, collectionIds }),
  });
}
