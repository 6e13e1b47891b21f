// Composes who hears the core areas' domain events (events/domain-events.ts): the platform areas (integrations,
// permissions, search) subscribe here,
// as the areas' handlers are composed in handlers.ts. createApi (so both the standalone app and a host
// mounting createDocsApi) and startJobs call it; it subscribes once per process, whoever calls it first.
import { subscribeIntegrations } from './integrations/core-events.js';
import { subscribePermissions } from './permissions/core-events.js';
import { subscribeSearch } from './search/core-events.js';

let subscribed = false;

/** Subscribes the platform areas to the domain events, once. */
export function subscribePlatformAreas(): void {
  if (subscribed) return;
  subscribed = true;
  subscribeIntegrations();
  subscribePermissions();
  subscribeSearch();
}
