// The Integrations operations: each maps its input to the stores and their result to a response.
import type { integrationOperations } from '../../contract/integrations.js';
import type { AppHandlers } from '../handler-types.js';
import { getEvent, listEvents } from './events.store.js';
import { installIntegration, listInstallations, listSiteInstallations, listSpaceInstallations } from './installations.store.js';
import { getIntegration, listIntegrations, publishIntegration, setDevelopmentMode, unpublishIntegration } from './integrations.store.js';

export const integrationHandlers = {
  async listIntegrations({ query }, ctx) {
    return { status: 200, body: await listIntegrations(ctx, query) };
  },
  async getIntegrationByName({ params }, ctx) {
    return { status: 200, body: await getIntegration(ctx, params.integrationName) };
  },
  async publishIntegration({ params, body }, ctx) {
    return { status: 200, body: await publishIntegration(ctx, params.integrationName, body) };
  },
  async unpublishIntegration({ params }, ctx) {
    await unpublishIntegration(ctx, params.integrationName);
    return { status: 204 };
  },
  async listIntegrationInstallations({ params, query }, ctx) {
    return { status: 200, body: await listInstallations(ctx, params.integrationName, query) };
  },
  async installIntegration({ params, body }, ctx) {
    return { status: 200, body: await installIntegration(ctx, params.integrationName, body.organization) };
  },
  async listIntegrationEvents({ params, query }, ctx) {
    return { status: 200, body: await listEvents(ctx, params.integrationName, query) };
  },
  async getIntegrationEvent({ params }, ctx) {
    return { status: 200, body: await getEvent(ctx, params.integrationName, params.eventId) };
  },
  async listIntegrationSpaceInstallations({ params, query }, ctx) {
    return { status: 200, body: await listSpaceInstallations(ctx, params.integrationName, query) };
  },
  async listIntegrationSiteInstallations({ params, query }, ctx) {
    return { status: 200, body: await listSiteInstallations(ctx, params.integrationName, query) };
  },
  async setIntegrationDevelopmentMode({ params, body }, ctx) {
    await setDevelopmentMode(ctx, params.integrationName, body);
    return { status: 204 };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof integrationOperations>>;
