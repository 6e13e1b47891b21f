// What search hears of the core areas: a space whose content moved (a merge, a template, an import, a
// translation) or a space made with content (a duplicate) has its index brought to that content in the
// writer's transaction (index-at-commit.ts), so the content and its index commit together: a space's index
// is never behind its committed content. Subscribed where the app is composed (server/subscribers.ts).
import { subscribe } from '../events/domain-events.js';
import { copyIndexAtCommit, indexAtCommit } from './index-at-commit.js';

/** Subscribes search to the core areas' events. */
export function subscribeSearch(): void {
  subscribe('space content updated', {
    name: 'search: index the space',
    handle: (tx, { spaceId, revisionId, previousRevisionId }) => indexAtCommit(tx, spaceId, revisionId, previousRevisionId),
  });
  subscribe('space created with content', {
    name: 'search: index the new space',
    handle: (tx, { spaceId, revisionId, copiedFrom }) => copyIndexAtCommit(tx, spaceId, revisionId, copiedFrom),
  });
}
