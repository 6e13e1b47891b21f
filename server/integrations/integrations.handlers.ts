// The Integrations operations: each maps its input to the stores and their result to a response.
import type { integrationOperations } from '../../contract/integrations.js';
import type { AppHandlers } from '../handler-types.js';
import { forgetInstallationTokens } from '../auth/installation-tokens.js';
import { getEvent, listEvents } from './events.store.js';
import { createInstallationToken } from './installation-tokens.store.js';
import { getInstallation, installIntegration, listInstallations, uninstallInstallation, updateInstallation } from './installations.store.js';
import {
  getTargetInstallation,
  installOnTarget,
  listInstallationTargets,
  listIntegrationTargets,
  uninstallFromTarget,
  updateTargetInstallation,
} from './target-installations.store.js';
import { disableDevelopmentMode, getIntegration, listIntegrations, publishIntegration, setDevelopmentMode, unpublishIntegration } from './integrations.store.js';

export const integrationHandlers = {
  async listIntegrations({ query }, ctx) {
    return { status: 200, body: await listIntegrations(ctx, query) };
  },
  async getIntegrationByName({ params }, ctx) {
    return { status: 200, body: await getIntegration(ctx, params.integrationName) };
  },
  async publishIntegration({ params, body }, ctx) {
    const published = await publishIntegration(ctx, params.integrationName, body);
    forgetInstallationTokens(params.integrationName); // its scopes may have changed
    return { status: 200, body: published };
  },
  async unpublishIntegration({ params }, ctx) {
    await unpublishIntegration(ctx, params.integrationName);
    forgetInstallationTokens(params.integrationName);
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
    return { status: 200, body: await listIntegrationTargets(ctx, params.integrationName, 'space', query) };
  },
  async listIntegrationSiteInstallations({ params, query }, ctx) {
    return { status: 200, body: await listIntegrationTargets(ctx, params.integrationName, 'site', query) };
  },
  async getIntegrationInstallationById({ params }, ctx) {
    return { status: 200, body: await getInstallation(ctx, params.integrationName, params.installationId) };
  },
  async updateIntegrationInstallation({ params, body }, ctx) {
    const updated = await updateInstallation(ctx, params.integrationName, params.installationId, body);
    forgetInstallationTokens(params.integrationName); // its selections may have changed
    return { status: 200, body: updated };
  },
  async createIntegrationInstallationToken({ params }, ctx) {
    return { status: 200, body: await createInstallationToken(ctx, params.integrationName, params.installationId) };
  },
  async uninstallIntegration({ params }, ctx) {
    await uninstallInstallation(ctx, params.integrationName, params.installationId);
    forgetInstallationTokens(params.integrationName);
    return { status: 204 };
  },
  async listIntegrationInstallationSpaces({ params, query }, ctx) {
    return { status: 200, body: await listInstallationTargets(ctx, params.integrationName, params.installationId, 'space', query) };
  },
  async installIntegrationOnSpace({ params, query, body }, ctx) {
    const { item } = await installOnTarget(ctx, params.integrationName, params.installationId, 'space', body.space, query.extended);
    forgetInstallationTokens(params.integrationName);
    return { status: 201, body: item, headers: { Location: item.urls.location! } };
  },
  async getIntegrationSpaceInstallation({ params, query }, ctx) {
    return { status: 200, body: await getTargetInstallation(ctx, params.integrationName, params.installationId, 'space', params.spaceId, query.extended) };
  },
  async updateIntegrationSpaceInstallation({ params, query, body }, ctx) {
    return { status: 200, body: await updateTargetInstallation(ctx, params.integrationName, params.installationId, 'space', params.spaceId, body, query.extended) };
  },
  async uninstallIntegrationFromSpace({ params }, ctx) {
    await uninstallFromTarget(ctx, params.integrationName, params.installationId, 'space', params.spaceId);
    forgetInstallationTokens(params.integrationName);
    return { status: 204 };
  },
  async listIntegrationInstallationSites({ params, query }, ctx) {
    return { status: 200, body: await listInstallationTargets(ctx, params.integrationName, params.installationId, 'site', query) };
  },
  async installIntegrationOnSite({ params, query, body }, ctx) {
    const { item } = await installOnTarget(ctx, params.integrationName, params.installationId, 'site', body.siteId, query.extended);
    forgetInstallationTokens(params.integrationName);
    return { status: 201, body: item, headers: { Location: item.urls.location! } };
  },
  async getIntegrationSiteInstallation({ params, query }, ctx) {
    return { status: 200, body: await getTargetInstallation(ctx, params.integrationName, params.installationId, 'site', params.siteId, query.extended) };
  },
  async updateIntegrationSiteInstallation({ params, query, body }, ctx) {
    return { status: 200, body: await updateTargetInstallation(ctx, params.integrationName, params.installationId, 'site', params.siteId, body, query.extended) };
  },
  async uninstallIntegrationFromSite({ params }, ctx) {
    await uninstallFromTarget(ctx, params.integrationName, params.installationId, 'site', params.siteId);
    forgetInstallationTokens(params.integrationName);
    return { status: 204 };
  },
  async setIntegrationDevelopmentMode({ params, body }, ctx) {
    await setDevelopmentMode(ctx, params.integrationName, body);
    return { status: 204 };
  },
  async disableIntegrationDevelopmentMode({ params }, ctx) {
    await disableDevelopmentMode(ctx, params.integrationName);
    return { status: 204 };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof integrationOperations>>;
