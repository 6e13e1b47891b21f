// Resources of the integrations area: integrations, their installations (in organizations, on spaces and
// on sites) and events, with their examples. The operations are in integrations.ts.
import { DateTime } from './common.js';
import { ex } from './examples.js';
import { Organization, organizationExample } from './organizations.js';
import { Site } from './sites.js';
import { Space } from './spaces.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

// Ids of this area's examples.
export const exampleIntegrationName = 'acme-analytics';
export const exampleInstallationId = 'ins_01JD3QG8K3PV6YC';
const installationId = exampleInstallationId;
export const exampleEventId = 'evt_01JD3QH2T9MB4ZR';
export const exampleSiteId = 'sit_01JD3QJ5W1RN7KD';
const siteId = exampleSiteId;

/** An integration name: letters, digits, `-`, `_` and `.`. */
export const integrationNamePattern = /^[a-zA-Z0-9-_.]+$/;

/** Icons and preview images are sent inline as base64 text (no `data:` prefix). */
export const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;
export const MAX_ICON_BASE64 = 512 * 1024;
export const MAX_PREVIEW_BASE64 = 1024 * 1024;
export const MAX_SCRIPT = 5 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Enumerations

export const IntegrationTarget = z
  .enum(['all', 'site', 'space', 'organization'])
  .openapi('IntegrationTarget', { description: 'What the integration can be installed on; `all` means every target.', example: 'all' });

export const integrationScopes = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;

export const IntegrationScope = z
  .enum(integrationScopes)
  .openapi('IntegrationScope', { description: 'A permission the integration asks for when installed.', example: 'space:content:read' });

export const IntegrationCategory = z
  .enum(['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other'])
  .openapi('IntegrationCategory', { description: 'A category of the integrations directory.', example: 'analytics' });

export const IntegrationVisibility = z.enum(['public', 'private', 'unlisted']).openapi('IntegrationVisibility', {
  description: 'public: listed for everyone; unlisted: installable by anyone who knows the name, not listed; private: only the owning organization.',
  example: 'public',
});

export const IntegrationInstallationStatus = z
  .enum(['active', 'pending', 'paused'])
  .openapi('IntegrationInstallationStatus', { description: 'State of an installation.', example: 'active' });

const installationSelection = z
  .enum(['all', 'selected'])
  .openapi({ description: 'all: every item of the organization; selected: only the items the installation was added to.' });

export const integrationEventTypes = [
  'installation_setup',
  'installation_deleted',
  'space_installation_setup',
  'space_installation_deleted',
  'site_installation_setup',
  'site_installation_deleted',
  'site_view',
  'space_content_updated',
  'space_gitsync_completed',
  'space_gitsync_started',
  'space_visibility_updated',
  'task',
  'fetch',
  'fetch_published_script',
  'fetch_visitor_authentication',
  'ui_render',
  'content_compute_document',
  'content_compute_revision',
  'page_feedback',
] as const;

export const IntegrationEventType = z
  .enum(integrationEventTypes)
  .openapi('IntegrationEventType', { description: 'Kind of an event delivered to an integration.', example: 'installation_setup' });

// ---------------------------------------------------------------------------------------------
// Parts of an integration definition (shared by the Integration resource and the publish body)

const configurationPropertyBase = {
  title: z.string().max(100).optional(),
  description: z.string().max(1000).optional(),
};

export const IntegrationConfigurationProperty = z
  .discriminatedUnion('type', [
    z.object({
      ...configurationPropertyBase,
      type: z.literal('string'),
      default: z.string().max(10_000).optional(),
      completion_url: z
        .string()
        .max(2048)
        .optional()
        .openapi({ description: 'Endpoint of the integration that suggests values while the user types.' }),
      enum: z.array(z.string().max(1000)).max(1000).openapi({ description: 'The only values allowed.' }).optional(),
    }),
    z.object({ ...configurationPropertyBase, type: z.literal('number'), default: z.number().optional() }),
    z.object({ ...configurationPropertyBase, type: z.literal('boolean'), default: z.boolean().optional() }),
    z.object({
      ...configurationPropertyBase,
      type: z.literal('button'),
      callback_url: z.string().min(1).max(2048).openapi({ description: 'Endpoint of the integration called when the button is pressed.' }),
      button_text: z.string().min(1).max(100),
    }),
  ])
  .openapi('IntegrationConfigurationProperty', {
    description: 'One setting of an integration configuration form; the fields beside `type` depend on it.',
    example: { type: 'string', title: 'Tracking id', description: 'The id of your analytics property.', default: '' },
  });

export const configurationSchemaExample = {
  properties: {
    trackingId: { type: 'string' as const, title: 'Tracking id', description: 'The id of your analytics property.' },
    anonymizeIp: { type: 'boolean' as const, title: 'Anonymize IP addresses', default: true },
  },
  required: ['trackingId'],
};

export const IntegrationConfigurationSchema = z
  .object({
    properties: z.record(z.string().max(100), IntegrationConfigurationProperty).openapi({ description: 'The settings, by name.' }),
    required: z.array(z.string().max(100)).max(100).openapi({ description: 'Names of the settings that must be given.' }).optional(),
  })
  .openapi('IntegrationConfigurationSchema', {
    description: 'The form of settings asked when the integration is installed or configured.',
    example: configurationSchemaExample,
  });

export const IntegrationConfigurationComponent = z
  .object({
    componentId: z.string().min(1).max(100).openapi({ description: 'Id of the UI component of the integration that asks for the settings.' }),
  })
  .openapi('IntegrationConfigurationComponent', {
    description:
      'A configuration asked by a UI component of the integration rather than by a form: the component checks the ' +
      'settings, so the server stores what is given (as free-form settings, within the size limit).',
    example: { componentId: 'config' },
  });

/** One target's configuration: a form of settings (JSON schema) or a component of the integration. */
export const IntegrationConfiguration = z
  .union([IntegrationConfigurationSchema, IntegrationConfigurationComponent])
  .openapi('IntegrationConfiguration', {
    description: 'How the settings of a target are asked: a form (`properties`, `required`) or a component (`componentId`).',
    example: configurationSchemaExample,
  });

export const IntegrationConfigurations = z
  .object({
    account: IntegrationConfiguration.openapi({ description: 'Settings of an installation in an organization.' }).optional(),
    space: IntegrationConfiguration.openapi({ description: 'Settings of an installation on a space.' }).optional(),
    site: IntegrationConfiguration.openapi({ description: 'Settings of an installation on a site.' }).optional(),
  })
  .openapi('IntegrationConfigurations', { example: { account: configurationSchemaExample } });

export const blockExample = {
  id: 'chart',
  title: 'Analytics chart',
  description: 'Embed a live chart of a dashboard.',
  icon: 'chart-line',
  urlUnfurl: ['https://analytics.acme.example.com/dashboards/'],
  markdown: { codeblock: 'acme-chart', body: 'dashboard: weekly-visits' },
};

export const IntegrationBlock = z
  .object({
    id: z.string().min(1).max(100),
    title: z.string().min(1).max(100),
    description: z.string().max(1000).optional(),
    icon: z.string().max(2048).optional(),
    urlUnfurl: z
      .array(z.string().min(1).max(2048))
      .max(50)
      .optional()
      .openapi({ description: 'URL prefixes that are turned into this block when pasted.' }),
    markdown: z
      .object({
        codeblock: z.string().min(1).max(100).openapi({ description: 'Language tag of the Markdown code block that holds the block.' }),
        body: z.string().max(10_000).openapi({ description: 'Body of the code block.' }),
      })
      .optional(),
  })
  .openapi('IntegrationBlock', { description: 'A custom block the integration provides to the editor.', example: blockExample });

const contentSourceExample = {
  id: 'dashboards',
  title: 'Dashboards',
  description: 'Generate pages from your dashboards.',
  icon: 'chart-bar',
  configuration: { componentId: 'dashboardPicker' },
};

export const IntegrationContentSource = z
  .object({
    id: z.string().min(1).max(100),
    title: z.string().min(1).max(100),
    description: z.string().max(1000).optional(),
    icon: z.string().max(2048).optional(),
    configuration: z
      .object({ componentId: z.string().min(1).max(100).openapi({ description: 'UI component that configures the source.' }) })
      .optional(),
  })
  .openapi('IntegrationContentSource', { description: 'A source of generated content the integration provides.', example: contentSourceExample });

export const externalLinkExample = { url: 'https://acme.example.com/docs/analytics-integration', label: 'Documentation' };

export const IntegrationExternalLink = z
  .object({ url: z.url().max(2048), label: z.string().min(1).max(100) })
  .openapi('IntegrationExternalLink', { example: externalLinkExample });

export const IntegrationContentSecurityPolicy = z
  .union([
    z.string().max(10_000),
    z.record(z.string().max(100), z.string().max(10_000)).openapi({ description: 'Directives by name, e.g. `script-src`.' }),
  ])
  .openapi('IntegrationContentSecurityPolicy', {
    description: 'Content security policy sent as headers when the integration processes script-fetch and blocks-fetch events.',
    example: { 'script-src': "'self' https://cdn.acme.example.com" },
  });

// ---------------------------------------------------------------------------------------------
// Integration

export const integrationExample = {
  object: 'integration' as const,
  name: exampleIntegrationName,
  version: 3,
  title: 'Acme Analytics',
  description: 'Track how readers use your docs.',
  summary: '# Acme Analytics\n\nSee which pages your readers visit and where they search in vain.',
  previewImages: [`${ex.baseUrl}/v1/integrations/${exampleIntegrationName}/assets/preview-1.png`],
  target: 'all' as const,
  verified: true,
  visibility: 'public' as const,
  scopes: ['site:views:read' as const, 'site:script:inject' as const],
  categories: ['analytics' as const],
  blocks: [blockExample],
  contentSources: [contentSourceExample],
  configurations: { account: configurationSchemaExample },
  externalLinks: [externalLinkExample],
  owner: organizationExample,
  urls: {
    location: `${ex.baseUrl}/v1/integrations/${exampleIntegrationName}`,
    icon: `${ex.baseUrl}/v1/integrations/${exampleIntegrationName}/assets/icon.png`,
    app: `${ex.appUrl}/integrations/${exampleIntegrationName}`,
    assets: `${ex.baseUrl}/v1/integrations/${exampleIntegrationName}/assets`,
    publicEndpoint: `https://integrations.docs.example.com/v1/integrations/${exampleIntegrationName}/integration`,
    publicContentEndpoint: `https://integrations.docs.example.com/v1/integrations/${exampleIntegrationName}/integration`,
  },
  permissions: { admin: true },
  contentSecurityPolicy: { 'script-src': "'self' https://cdn.acme.example.com" },
};

export const Integration = z
  .object({
    object: z.literal('integration'),
    name: z.string().regex(integrationNamePattern).openapi({ description: 'Unique name of the integration, used in its URLs.' }),
    version: z.number().int().openapi({ description: 'Number of the published version, incremented at every publication.' }),
    title: z.string(),
    description: z.string().openapi({ description: 'One-line description.' }),
    summary: z.string().openapi(conditional('Long Markdown presentation; absent when it was published without one.')).optional(),
    previewImages: z.array(z.string()).openapi({ description: 'URLs of the preview images.' }),
    target: IntegrationTarget,
    verified: z.boolean().openapi({ description: 'Whether the integration was reviewed by the service.' }),
    visibility: IntegrationVisibility,
    scopes: z.array(IntegrationScope),
    categories: z.array(IntegrationCategory),
    blocks: z.array(IntegrationBlock),
    contentSources: z.array(IntegrationContentSource),
    configurations: IntegrationConfigurations,
    externalLinks: z.array(IntegrationExternalLink),
    owner: Organization,
    urls: z.object({
      location: z.url(),
      icon: z.url().optional(),
      app: z.url(),
      assets: z.url(),
      publicEndpoint: z.url().openapi({ description: 'Where the integration receives requests and events.' }),
      publicContentEndpoint: z.url().openapi({
        description:
          'Where the integration serves its rendered content (the webframes of its blocks). Equals `publicEndpoint`: this ' +
          'server has no separate content origin; a published page frames it sandboxed, in an origin of its own.',
      }),
    }),
    permissions: z.object({ admin: z.boolean().openapi({ description: 'Whether the caller may publish or unpublish it.' }) }),
    contentSecurityPolicy: IntegrationContentSecurityPolicy.openapi(conditional('Content security policy sent as headers when the integration processes script-fetch and blocks-fetch events; absent when it was published without one.')).optional(),
  })
  .openapi('Integration', { description: 'An app that extends the workspace, published by an organization.', example: integrationExample });

// ---------------------------------------------------------------------------------------------
// Installations, space and site installations

export const integrationInstallationExample = {
  object: 'integration-installation' as const,
  id: installationId,
  status: 'active' as const,
  space_selection: 'selected' as const,
  site_selection: 'all' as const,
  spaces: 1,
  configuration: { trackingId: 'AC-48213', anonymizeIp: true },
  createdAt: ex.createdAt,
  updatedAt: ex.updatedAt,
  urls: {
    location: `${ex.baseUrl}/v1/integrations/${exampleIntegrationName}/installations/${installationId}`,
    app: `${ex.appUrl}/o/${ex.orgId}/integrations/${exampleIntegrationName}`,
    publicEndpoint: `https://integrations.docs.example.com/v1/integrations/${exampleIntegrationName}/installations/${installationId}`,
    publicContentEndpoint: `https://integrations.docs.example.com/v1/integrations/${exampleIntegrationName}/installations/${installationId}`,
  },
  externalIds: ['acme-account-48213'],
  target: { organization: ex.orgId },
};

const freeFormConfiguration = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'Settings, free-form, following the configuration schema of the integration.' });

/** Settings given to an installation (checked against the integration's configuration schema; at most 64 KiB of JSON). */
export const ConfigurationInput = z
  .record(z.string().min(1).max(100), z.unknown())
  .openapi({ description: 'Settings following the configuration schema of the integration for this target; replaces the previous ones. At most 64 KiB once written as JSON.' });

/** External ids the integration gives an installation in its own system (the public API allows 5). */
export const ExternalIdsInput = z
  .array(z.string().min(1).max(256))
  .max(5)
  .openapi({ description: 'Ids the integration gives the installation in its own system (at most 5); replaces the previous ones.' });

export const IntegrationInstallationSelection = installationSelection;

const publicContentEndpoint = z.url().openapi({
  description:
    'Where the installation serves its rendered content (the webframes of its blocks), without a token. Equals `publicEndpoint`: ' +
    'this server has no separate content origin (a published page frames it sandboxed, in an origin of its own).',
});

export const IntegrationInstallation = z
  .object({
    object: z.literal('integration-installation'),
    id: z.string(),
    status: IntegrationInstallationStatus,
    space_selection: installationSelection,
    site_selection: installationSelection,
    spaces: z.number().int().openapi({ description: 'Number of spaces the installation is on.' }),
    configuration: freeFormConfiguration,
    createdAt: DateTime,
    updatedAt: DateTime,
    urls: z.object({ location: z.url(), app: z.url(), publicEndpoint: z.url(), publicContentEndpoint }),
    externalIds: z.array(z.string()).openapi({ description: 'Ids the integration gave the installation in its own system.' }),
    target: z.object({ organization: z.string().openapi({ description: 'Id of the organization the integration is installed in.' }) }),
  })
  .openapi('IntegrationInstallation', { description: 'An integration installed in an organization.', example: integrationInstallationExample });

const installationItemUrls = z.object({ location: z.url(), publicEndpoint: z.url(), publicContentEndpoint });

export const integrationSpaceInstallationExample = {
  integration: exampleIntegrationName,
  installation: installationId,
  status: 'active' as const,
  configuration: { dashboard: 'weekly-visits' },
  externalIds: ['acme-project-771'],
  urls: {
    location: `${ex.baseUrl}/v1/integrations/${exampleIntegrationName}/installations/${installationId}/spaces/${ex.spaceId}`,
    publicEndpoint: `https://integrations.docs.example.com/v1/integrations/${exampleIntegrationName}/installations/${installationId}/spaces/${ex.spaceId}`,
    publicContentEndpoint: `https://integrations.docs.example.com/v1/integrations/${exampleIntegrationName}/installations/${installationId}/spaces/${ex.spaceId}`,
  },
  space: ex.spaceId,
};

/** What an installation on a space and one on a site share: all but the target. */
const targetInstallationFields = {
    integration: z.string().openapi({ description: 'Name of the integration.' }),
    installation: z.string().openapi({ description: 'Id of the installation.' }),
    status: IntegrationInstallationStatus,
    configuration: freeFormConfiguration,
    externalIds: z.array(z.string()),
    urls: installationItemUrls,
};

export const IntegrationSpaceInstallation = z
  .object({
    ...targetInstallationFields,
    space: z.union([z.string(), Space]).openapi({ description: 'Id of the space, or the Space itself with `extended=true`.' }),
  })
  .openapi('IntegrationSpaceInstallation', {
    description: 'An installation of an integration on a space.',
    example: integrationSpaceInstallationExample,
  });

export const integrationSiteInstallationExample = {
  integration: exampleIntegrationName,
  installation: installationId,
  status: 'active' as const,
  configuration: { trackingId: 'AC-48213' },
  externalIds: ['acme-site-19'],
  urls: {
    location: `${ex.baseUrl}/v1/integrations/${exampleIntegrationName}/installations/${installationId}/sites/${siteId}`,
    publicEndpoint: `https://integrations.docs.example.com/v1/integrations/${exampleIntegrationName}/installations/${installationId}/sites/${siteId}`,
    publicContentEndpoint: `https://integrations.docs.example.com/v1/integrations/${exampleIntegrationName}/installations/${installationId}/sites/${siteId}`,
  },
  site: siteId,
};

export const IntegrationSiteInstallation = z
  .object({
    ...targetInstallationFields,
    site: z
      .union([z.string(), Site])
      .openapi({ description: 'Id of the site, or the Site itself with `extended=true`.' }),
  })
  .openapi('IntegrationSiteInstallation', {
    description: 'An installation of an integration on a docs site.',
    example: integrationSiteInstallationExample,
  });

// ---------------------------------------------------------------------------------------------
// Events

export const integrationEventExample = {
  object: 'integration-event' as const,
  id: exampleEventId,
  integrationId: exampleIntegrationName,
  installationId,
  createdAt: ex.updatedAt,
  payload: {
    eventId: exampleEventId,
    type: 'installation_setup' as const,
    installationId,
    status: 'active' as const,
    previous: { status: 'pending' as const, configuration: {} },
  },
  status: 'success' as const,
};

export const IntegrationEvent = z
  .object({
    object: z.literal('integration-event'),
    id: z.string(),
    integrationId: z.string().openapi({ description: 'The integration that received the event.' }),
    installationId: z.string().openapi({ description: 'The installation the event concerns, when any.' }).optional(),
    createdAt: DateTime,
    payload: z
      .looseObject({
        eventId: z.string(),
        type: IntegrationEventType,
        installationId: z.string().optional(),
        status: IntegrationInstallationStatus.optional(), // on installation events
        previous: z
          .object({ status: IntegrationInstallationStatus.optional(), configuration: freeFormConfiguration.optional() })
          .optional()
          .openapi({ description: 'State of the installation before the event, on installation events.' }),
      })
      .openapi({ description: 'What was delivered; other kinds of events carry further fields.' }),
    status: z.enum(['pending', 'success', 'failed']).openapi({
      description:
        'Whether the integration handled the event: `pending` until a delivery attempt is answered, `success` ' +
        'once the script (or the development tunnel) answered 2xx, `failed` once every attempt failed (the ' +
        'reason of each is in the trace).',
    }),
  })
  .openapi('IntegrationEvent', { description: 'An event delivered to an integration.', example: integrationEventExample });

export const integrationEventWithTraceExample = {
  event: integrationEventExample,
  trace: {
    logs: [{ message: 'Installation configured for property AC-48213', timestamp: ex.updatedAt, level: 'info' as const }],
  },
};

export const IntegrationEventWithTrace = z
  .object({
    event: IntegrationEvent,
    trace: z.object({
      logs: z.array(
        z.object({ message: z.string(), timestamp: DateTime, level: z.enum(['debug', 'info', 'warn', 'error']) }),
      ),
    }),
  })
  .openapi('IntegrationEventWithTrace', {
    description: 'An event with the logs the integration wrote while handling it.',
    example: integrationEventWithTraceExample,
  });
