// Integrations, their installations and events: the operations (resources in integration-schemas.ts).
import { DateTime, listExample, listOf, paginationQuery, queryBoolean, trimmedText } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import {
  base64Pattern,
  blockExample,
  configurationSchemaExample,
  exampleEventId,
  exampleIntegrationName,
  externalLinkExample,
  Integration,
  IntegrationBlock,
  IntegrationCategory,
  IntegrationConfigurations,
  IntegrationContentSecurityPolicy,
  IntegrationContentSource,
  IntegrationEvent,
  integrationEventExample,
  IntegrationEventWithTrace,
  integrationEventWithTraceExample,
  integrationExample,
  IntegrationExternalLink,
  ConfigurationInput,
  ExternalIdsInput,
  IntegrationInstallation,
  integrationInstallationExample,
  IntegrationInstallationSelection,
  integrationNamePattern,
  IntegrationScope,
  integrationScopes,
  IntegrationSiteInstallation,
  integrationSiteInstallationExample,
  exampleInstallationId,
  exampleSiteId,
  IntegrationSpaceInstallation,
  integrationSpaceInstallationExample,
  IntegrationTarget,
  IntegrationVisibility,
  MAX_ICON_BASE64,
  MAX_PREVIEW_BASE64,
  MAX_SCRIPT,
} from './integration-schemas.js';
import { operations, type Operation } from './operation.js';
import { z } from './zod.js';

// ---------------------------------------------------------------------------------------------
// Parameters and bodies

// Installations: who may call (stated in each description) is applied by the store, like the rest of
// this area. An installation is managed by the admins of the organization it is installed in; the
// admins of the organization owning the integration may read it.
const INSTALLATION_ACCESS =
  'Needs the admin role in the organization the integration is installed in; admins of the organization owning ' +
  'the integration may read it (403 for their writes), and other members of either get 403. An unknown ' +
  'integration or installation, or one the caller cannot see, is not found.';

const IntegrationNameParams = z.object({
  integrationName: z
    .string()
    .min(1)
    .max(128)
    .regex(integrationNamePattern)
    .openapi({ description: 'The name of the integration.', example: exampleIntegrationName }),
});

const InstallationParams = IntegrationNameParams.extend({
  installationId: z.string().min(1).max(128).openapi({ description: 'The id of the installation.', example: exampleInstallationId }),
});

const externalIdQuery = z
  .string()
  .min(1)
  .max(256)
  .optional()
  .openapi({ description: 'Only the installations with this external id.' });

const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const publishIntegrationExample = {
  runtime: 'v1',
  icon: tinyPng,
  title: 'Acme Analytics',
  description: 'Track how readers use your docs.',
  summary: '# Acme Analytics\n\nSee which pages your readers visit and where they search in vain.',
  previewImages: [tinyPng],
  visibility: 'public',
  scopes: ['site:views:read', 'site:script:inject'],
  categories: ['analytics'],
  blocks: [blockExample],
  externalLinks: [externalLinkExample],
  configurations: { account: configurationSchemaExample },
  script: "export default createIntegration({ events: { site_view: async (event) => track(event) } });",
  organization: ex.orgId,
  secrets: { ACME_API_KEY: 'sk_live_4f8b2c' },
  contentSecurityPolicy: { 'script-src': "'self' https://cdn.acme.example.com" },
};

const PublishIntegration = z
  .strictObject({
    runtime: z
      .enum(['v1', 'v2'])
      .openapi({
        description:
          'How the script is called (docs/integrations-runtime.md). `v2`: GitBook\'s dispatch protocol, what ' +
          '`@gitbook/runtime` scripts published by `@gitbook/cli` expect (a multipart POST with `event`, ' +
          '`environment` and `fetch-body`). `v1` (the default when omitted): a plain Workers module whose `fetch` ' +
          'receives events as JSON and requests as themselves.',
      })
      .optional(),
    icon: z
      .string()
      .max(MAX_ICON_BASE64)
      .regex(base64Pattern)
      .optional()
      .openapi({
        description:
          `Icon image, base64-encoded (at most ${MAX_ICON_BASE64} characters). Its type is read from its bytes: ` +
          'anything but a PNG, JPEG, GIF, WebP or SVG image is refused (400).',
      }),
    title: trimmedText(1, 100),
    // The public API sets no minimum, and @gitbook/cli sends '' for a manifest without one.
    description: z.string().max(1000).trim().openapi({ description: 'One-line description (may be empty).' }),
    summary: z.string().max(50_000).openapi({ description: 'Long Markdown presentation.' }).optional(),
    previewImages: z
      .array(z.string().max(MAX_PREVIEW_BASE64).regex(base64Pattern))
      .max(5)
      .optional()
      .openapi({
        description:
          `Preview images, base64-encoded (at most 5, each at most ${MAX_PREVIEW_BASE64} characters), PNG, JPEG, ` +
          'GIF, WebP or SVG by their bytes (400 otherwise). They are served at the URLs of `previewImages`.',
      }),
    visibility: IntegrationVisibility.optional(),
    target: IntegrationTarget.optional(), // omitted means all targets
    scopes: z.array(IntegrationScope).max(integrationScopes.length),
    categories: z.array(IntegrationCategory).max(6).optional(),
    blocks: z.array(IntegrationBlock).max(50).optional(),
    contentSources: z.array(IntegrationContentSource).max(50).optional(),
    externalLinks: z.array(IntegrationExternalLink).max(20).optional(),
    configurations: IntegrationConfigurations.optional(),
    script: z.string().min(1).max(MAX_SCRIPT).openapi({ description: 'Source of the script that handles the events.' }),
    organization: z
      .string()
      .min(1)
      .max(128)
      .openapi({ description: 'Id or hostname (subdomain) of the organization that publishes the integration.' }),
    secrets: z
      .record(z.string().min(1).max(100), z.string().max(10_000))
      .optional()
      .openapi({ description: 'Values given to the script at run time, by name; never returned.' }),
    contentSecurityPolicy: IntegrationContentSecurityPolicy.optional(),
  })
  .openapi('PublishIntegration');

const integrationResponse = (description: string) => ({ description, schema: Integration, example: integrationExample });

// Functions below are hoisted; the tables they build are made before the operation table uses them.
const targetIdParam = (what: string, example: string) => z.string().min(1).max(128).openapi({ description: `The id of the ${what}.`, example });
const spaceInstallationOperations = targetInstallationOperations('space', InstallationParams.extend({ spaceId: targetIdParam('space', ex.spaceId) }));
const siteInstallationOperations = targetInstallationOperations('site', InstallationParams.extend({ siteId: targetIdParam('docs site', exampleSiteId) }));

export const integrationOperations = operations({
  listIntegrations: {
    method: 'get',
    path: '/integrations',
    tag: 'integrations',
    summary: 'List integrations',
    description:
      'Lists the published integrations the caller can see: the public ones, and the unlisted and private ones of ' +
      'organizations the caller is a member of. The filters combine.',
    query: z.object({
      ...paginationQuery,
      search: z.string().min(1).max(256).openapi({ description: 'Only integrations whose name or title contains this text.' }).optional(),
      category: z.enum(IntegrationCategory.options).openapi({ description: 'Only integrations of this category.' }).optional(),
      blockDomain: z
        .string()
        .max(100)
        .regex(integrationNamePattern)
        .optional()
        .openapi({ description: 'Only integrations with a block that unfurls URLs of this domain.' }),
      blocks: queryBoolean('true: only integrations with blocks; false: only those without.').optional(),
      contentSources: queryBoolean('true: only integrations with content sources; false: only those without.').optional(),
      owner: z.string().min(1).max(128).openapi({ description: 'Only integrations published by this organization (id).' }).optional(),
      scope: z.enum(integrationScopes).openapi({ description: 'Only integrations that ask for this scope.' }).optional(),
      target: z.enum(IntegrationTarget.options).openapi({ description: 'Only integrations installable on this target.' }).optional(),
    }),
    responses: {
      200: { description: 'A page of integrations.', schema: listOf('IntegrationList', Integration), example: listExample([integrationExample]) },
    },
    access: access.caller(),
    statements: 1,
  },
  getIntegrationByName: {
    method: 'get',
    path: '/integrations/{integrationName}',
    tag: 'integrations',
    summary: 'Get an integration',
    description:
      'Returns an integration by its name. Public and unlisted integrations are readable by any caller, private ' +
      'ones only by members of the owning organization; an integration the caller cannot see is not found.',
    params: IntegrationNameParams,
    responses: { 200: integrationResponse('The integration.') },
    errors: [404],
    access: access.caller(),
    statements: 1,
  },
  publishIntegration: {
    method: 'post',
    path: '/integrations/{integrationName}',
    tag: 'integrations',
    summary: 'Publish an integration',
    description:
      'Publishes the integration under this name for the organization `organization` (its id or hostname): the ' +
      'first publication creates it, later ones replace its definition and increment its `version`. Needs the ' +
      'admin role in that organization; a name owned by another organization is forbidden (403). An ' +
      'organization that cannot be found by id or hostname is not found (404). `secrets` are kept for the ' +
      'script and never returned.',
    params: IntegrationNameParams,
    body: PublishIntegration,
    bodyExample: publishIntegrationExample,
    // The script (5 MiB), the icon and five preview images travel in one body.
    maxBodyBytes: 12 * 1024 * 1024,
    responses: { 200: integrationResponse('The published integration.') },
    errors: [403, 404],
    access: access.caller(),
    statements: 8,
  },
  unpublishIntegration: {
    method: 'delete',
    path: '/integrations/{integrationName}',
    tag: 'integrations',
    summary: 'Unpublish an integration',
    description:
      'Removes a published integration with its installations and events. Needs the admin role in the owning ' +
      'organization (403 otherwise). Succeeds with no content also when the integration does not exist or the ' +
      'caller cannot see it.',
    params: IntegrationNameParams,
    responses: { 204: { description: 'The integration is unpublished.' } },
    errors: [403],
    access: access.caller(),
    statements: 2,
  },
  listIntegrationInstallations: {
    method: 'get',
    path: '/integrations/{integrationName}/installations',
    tag: 'integrations',
    summary: 'List the installations of an integration',
    description:
      'Lists the installations of an integration, in creation order. Only the integration itself and admins of ' +
      'its owning organization may list them (403 otherwise); an unknown integration is not found.',
    params: IntegrationNameParams,
    query: z.object({ ...paginationQuery, externalId: externalIdQuery }),
    responses: {
      200: {
        description: 'A page of installations.',
        schema: listOf('IntegrationInstallationList', IntegrationInstallation),
        example: listExample([integrationInstallationExample]),
      },
    },
    errors: [403, 404],
    access: access.caller(),
    statements: 1,
  },
  installIntegration: {
    method: 'post',
    path: '/integrations/{integrationName}/installations',
    tag: 'integrations',
    summary: 'Install an integration',
    description:
      'Installs the integration in the organization `organization`, or returns its existing installation there. ' +
      'Needs the admin role in that organization. A private integration installs only in its own organization ' +
      '(403). An unknown integration or organization is not found. A new installation emits an ' +
      '`installation_setup` event.',
    params: IntegrationNameParams,
    body: z
      .strictObject({
        organization: z.string().min(1).max(128).openapi({ description: 'Id of the organization to install the integration in.' }),
      })
      .openapi('InstallIntegration'),
    bodyExample: { organization: ex.orgId },
    responses: {
      200: { description: 'The installation.', schema: IntegrationInstallation, example: integrationInstallationExample },
    },
    errors: [403, 404],
    access: access.caller(),
    statements: 5,
  },
  listIntegrationEvents: {
    method: 'get',
    path: '/integrations/{integrationName}/events',
    tag: 'integrations',
    summary: 'List the events of an integration',
    description:
      'Lists the events delivered to an integration, newest first. Only admins of its owning organization and the ' +
      'integration itself may list them (403 otherwise); an unknown integration is not found.',
    params: IntegrationNameParams,
    query: z.object(paginationQuery),
    responses: {
      200: {
        description: 'A page of events.',
        schema: listOf('IntegrationEventList', IntegrationEvent),
        example: listExample([integrationEventExample]),
      },
    },
    errors: [403, 404],
    access: access.caller(),
    statements: 1,
  },
  getIntegrationEvent: {
    method: 'get',
    path: '/integrations/{integrationName}/events/{eventId}',
    tag: 'integrations',
    summary: 'Get an event of an integration',
    description:
      'Returns an event delivered to the integration, with the logs written while handling it. Same access as ' +
      'listing the events; an unknown integration or event is not found.',
    params: IntegrationNameParams.extend({
      eventId: z.string().min(1).max(128).openapi({ description: 'The id of the event.', example: exampleEventId }),
    }),
    responses: {
      200: { description: 'The event and its trace.', schema: IntegrationEventWithTrace, example: integrationEventWithTraceExample },
    },
    errors: [403, 404],
    access: access.caller(),
    statements: 1,
  },
  listIntegrationSpaceInstallations: {
    method: 'get',
    path: '/integrations/{integrationName}/spaces',
    tag: 'integrations',
    summary: 'List the spaces an integration is installed on',
    description:
      'Lists the installations of an integration on spaces, across its installations. With `extended=true`, ' +
      '`space` is the Space itself rather than its id. Only the integration itself and admins of its owning ' +
      'organization may list them (403 otherwise); an unknown integration is not found.',
    params: IntegrationNameParams,
    query: z.object({
      ...paginationQuery,
      externalId: externalIdQuery,
      extended: queryBoolean('Return each space as a Space object instead of its id (default false).')
        .default(false)
        .openapi({ default: false }),
    }),
    responses: {
      200: {
        description: 'A page of space installations.',
        schema: listOf('IntegrationSpaceInstallationList', IntegrationSpaceInstallation),
        example: listExample([integrationSpaceInstallationExample]),
      },
    },
    errors: [403, 404],
    access: access.caller(),
    statements: 1,
  },
  listIntegrationSiteInstallations: {
    method: 'get',
    path: '/integrations/{integrationName}/sites',
    tag: 'integrations',
    summary: 'List the sites an integration is installed on',
    description:
      'Lists the installations of an integration on docs sites, across its installations. With `extended=true`, ' +
      '`site` is the Site itself rather than its id. Only the integration itself and admins of its owning ' +
      'organization may list them (403 otherwise); an unknown integration is not found.',
    params: IntegrationNameParams,
    query: z.object({
      ...paginationQuery,
      externalId: externalIdQuery,
      extended: queryBoolean('Return each site as a Site object instead of its id (default false).')
        .default(false)
        .openapi({ default: false }),
    }),
    responses: {
      200: {
        description: 'A page of site installations.',
        schema: listOf('IntegrationSiteInstallationList', IntegrationSiteInstallation),
        example: listExample([integrationSiteInstallationExample]),
      },
    },
    errors: [403, 404],
    access: access.caller(),
    statements: 1,
  },
  setIntegrationDevelopmentMode: {
    method: 'put',
    path: '/integrations/{integrationName}/dev',
    tag: 'integrations',
    summary: 'Set the development mode of an integration',
    description:
      'Dispatches the events of the integration to `tunnelUrl` instead of its published script. By default only ' +
      'the events and requests coming from the owning organization go to the tunnel; with `all: true` every one ' +
      'does. The tunnel receives what the script would (its protocol, headers and environment; see ' +
      '`runtime` of the publish body), signed with `X-Integration-Signature` when the integration has a ' +
      '`SIGNING_SECRET` secret. Events are delivered in the background, with at most 3 attempts ' +
      '(1 s then 2 s apart) of at most 10 s each, every attempt logged in the event trace; an event whose ' +
      'attempts all fail is `failed`. Needs the admin role in the owning organization (403 otherwise). An ' +
      'unknown integration, or a private one the caller cannot see, is not found.',
    params: IntegrationNameParams,
    body: z
      .strictObject({
        tunnelUrl: z
          .url()
          .min(1)
          .max(256)
          .openapi({ description: 'URL the events are dispatched to; an http or https URL (other schemes are refused, 400).' }),
        all: z
          .boolean()
          .default(false)
          .openapi({ description: 'Also forward the requests that do not come from the owning organization.' }),
      })
      .openapi('SetIntegrationDevelopmentMode'),
    bodyExample: { tunnelUrl: 'https://quiet-river-4821.tunnel.example.com', all: false },
    responses: { 204: { description: 'The development mode is updated.' } },
    errors: [403, 404],
    access: access.caller(),
    statements: 2,
  },
  disableIntegrationDevelopmentMode: {
    method: 'delete',
    path: '/integrations/{integrationName}/dev',
    tag: 'integrations',
    summary: 'Disable the development mode of an integration',
    description:
      'Ends the development mode: events and requests go to the published script again (what `gitbook dev` does ' +
      'when it stops). Needs the admin role in the owning organization (403 otherwise). Succeeds with no content ' +
      'also when the integration was not in development mode, does not exist or cannot be seen by the caller (the ' +
      'public API answers 205 here; this server answers 204 to every delete).',
    params: IntegrationNameParams,
    responses: { 204: { description: 'The development mode is off.' } },
    errors: [403],
    access: access.caller(),
    statements: 2,
  },
  ...installationOperations(),
  listIntegrationInstallationSpaces: spaceInstallationOperations.list,
  installIntegrationOnSpace: spaceInstallationOperations.install,
  getIntegrationSpaceInstallation: spaceInstallationOperations.get,
  updateIntegrationSpaceInstallation: spaceInstallationOperations.update,
  uninstallIntegrationFromSpace: spaceInstallationOperations.uninstall,
  listIntegrationInstallationSites: siteInstallationOperations.list,
  installIntegrationOnSite: siteInstallationOperations.install,
  getIntegrationSiteInstallation: siteInstallationOperations.get,
  updateIntegrationSiteInstallation: siteInstallationOperations.update,
  uninstallIntegrationFromSite: siteInstallationOperations.uninstall,
});

/** Reading, configuring and removing one installation in an organization. */
function installationOperations() {
  const params = InstallationParams;
  return operations({
    getIntegrationInstallationById: {
      method: 'get',
      path: '/integrations/{integrationName}/installations/{installationId}',
      tag: 'integrations',
      summary: 'Get an installation of an integration',
      description: `Returns an installation of the integration. ${INSTALLATION_ACCESS}`,
      params,
      responses: { 200: { description: 'The installation.', schema: IntegrationInstallation, example: integrationInstallationExample } },
      errors: [403, 404],
      access: access.caller(),
      statements: 1,
    },
    updateIntegrationInstallation: {
      method: 'patch',
      path: '/integrations/{integrationName}/installations/{installationId}',
      tag: 'integrations',
      summary: 'Update an installation of an integration',
      description:
        'Changes the settings of an installation: `configuration` (checked against the `account` configuration schema ' +
        'of the integration: a missing required setting or a value of the wrong type is refused, 400), `externalIds`, ' +
        'and `space_selection` / `site_selection` (`all`: every space or site of the organization, present and ' +
        'future; `selected`: those it was installed on). A change of configuration or selection emits an ' +
        `\`installation_setup\` event with the previous state. ${INSTALLATION_ACCESS}`,
      params,
      body: z
        .strictObject({
          configuration: ConfigurationInput.optional(),
          externalIds: ExternalIdsInput.optional(),
          space_selection: IntegrationInstallationSelection.optional(),
          site_selection: IntegrationInstallationSelection.optional(),
        })
        .openapi('UpdateIntegrationInstallation'),
      bodyExample: { configuration: { trackingId: 'AC-48213', anonymizeIp: true }, externalIds: ['acme-account-48213'] },
      responses: { 200: { description: 'The updated installation.', schema: IntegrationInstallation, example: integrationInstallationExample } },
      errors: [403, 404],
      access: access.caller(),
      statements: 5,
    },
    createIntegrationInstallationToken: {
      method: 'post',
      path: '/integrations/{integrationName}/installations/{installationId}/tokens',
      tag: 'integrations',
      summary: 'Create an integration installation API token',
      description:
        'Creates a temporary API token of the installation (valid one hour): a request made with it acts as the ' +
        'installation, within the `scopes` of the integration (403 naming the missing scope otherwise) and on the ' +
        'organization, spaces and sites the installation covers (403 for a space or site of its organization it is not ' +
        'installed on, 404 elsewhere). What it writes is signed by the installation. Uninstalling the integration ' +
        'revokes its tokens (401). A script run for an installation receives one in `env.apiTokens.installation`. ' +
        'Needs the admin role in the organization that owns the integration (it stands for the integration; 403 ' +
        'otherwise); an unknown integration or installation, or one the caller cannot see, is not found.',
      params,
      responses: {
        200: {
          description: 'The API token for the installation.',
          schema: z
            .object({
              token: z.string().openapi({ description: 'Temporary access token to authenticate with the API, as the installation.' }),
              expiresAt: DateTime.openapi({ description: 'When the token stops being accepted.' }),
            })
            .openapi('APITemporaryToken'),
          example: { token: 'dwit_3q2Xv9bKfR1mT0aZ8cLw4sYpN6uHjE5d', expiresAt: '2026-11-25T13:00:00.000Z' },
        },
      },
      errors: [403, 404],
      access: access.caller(),
      statements: 7,
    },
    uninstallIntegration: {
      method: 'delete',
      path: '/integrations/{integrationName}/installations/{installationId}',
      tag: 'integrations',
      summary: 'Uninstall an integration',
      description:
        'Removes the installation with its installations on spaces and sites, and emits an `installation_deleted` ' +
        'event with its last configuration. Needs the admin role in the organization it is installed in (403 for ' +
        'other members). Succeeds with no content also when the installation does not exist or the caller cannot see it.',
      params,
      responses: { 204: { description: 'The integration is uninstalled.' } },
      errors: [403],
      access: access.caller(),
      statements: 5,
    },
  });
}

/** Installing an installation on one space or one docs site, and reading, configuring and removing it. */
function targetInstallationOperations<P extends z.ZodObject>(kind: 'space' | 'site', targetParams: P) {
  const Kind = kind === 'space' ? 'Space' : 'Site';
  const plural = `${kind}s`;
  const what = kind === 'space' ? 'space' : 'docs site';
  const schema = kind === 'space' ? IntegrationSpaceInstallation : IntegrationSiteInstallation;
  const example = kind === 'space' ? integrationSpaceInstallationExample : integrationSiteInstallationExample;
  const targetId = `${kind}Id` as const;

  const extendedQuery = z.object({
    extended: queryBoolean(`Return the ${what} as a ${Kind} object instead of its id (default false).`)
      .default(false)
      .openapi({ default: false }),
  });
  const path = `/integrations/{integrationName}/installations/{installationId}/${plural}`;
  const itemPath = `${path}/{${targetId}}`;
  // The public API names the body field `space` for spaces and `siteId` for sites.
  const bodyField = kind === 'space' ? 'space' : 'siteId';
  const events = `\`${kind}_installation_setup\``;
  return {
    list: {
      method: 'get',
      path,
      tag: 'integrations',
      summary: `List the ${what}s of an installation`,
      description: `Lists the ${what}s the installation is installed on, in the order they were added. ${INSTALLATION_ACCESS}`,
      params: InstallationParams,
      query: z.object({ ...paginationQuery, extended: extendedQuery.shape.extended }),
      responses: {
        200: {
          description: `A page of ${kind} installations.`,
          schema: listOf(`IntegrationInstallation${Kind}List`, schema),
          example: listExample([example]),
        },
      },
      errors: [403, 404],
      access: access.caller(),
      statements: 1,
    },
    install: {
      method: 'post',
      path,
      tag: 'integrations',
      summary: `Install an integration on a ${what}`,
      description:
        `Installs the installation on a ${what} of its organization (an unknown ${what}, or one of another ` +
        `organization, is not found), or returns the one it already has there. The integration must be installable ` +
        `on ${what}s (its \`target\` \`all\` or \`${kind}\`; 400 otherwise). A new one emits ${events}. ${INSTALLATION_ACCESS}`,
      params: InstallationParams,
      query: extendedQuery,
      body: z
        .strictObject({ [bodyField]: z.string().min(1).max(128).openapi({ description: `Id of the ${what} to install the integration on.` }) })
        .openapi(`InstallIntegrationOn${Kind}`),
      bodyExample: { [bodyField]: kind === 'space' ? ex.spaceId : exampleSiteId },
      responses: {
        201: {
          description: `The installation on the ${what}.`,
          schema,
          example,
          headers: { Location: { description: `URL of the installation on the ${what}.`, example: example.urls.location } },
        },
      },
      errors: [403, 404],
      access: access.caller(),
      statements: 6,
    },
    get: {
      method: 'get',
      path: itemPath,
      tag: 'integrations',
      summary: `Get the installation of an integration on a ${what}`,
      description: `Returns the installation on the ${what}; not found when it is not installed there. ${INSTALLATION_ACCESS}`,
      params: targetParams,
      query: extendedQuery,
      responses: { 200: { description: `The installation on the ${what}.`, schema, example } },
      errors: [403, 404],
      access: access.caller(),
      statements: 1,
    },
    update: {
      method: 'patch',
      path: itemPath,
      tag: 'integrations',
      summary: `Update the installation of an integration on a ${what}`,
      description:
        `Changes the \`configuration\` (checked against the \`${kind}\` configuration schema of the integration, 400 ` +
        `when it does not fit) and the \`externalIds\` of the installation on the ${what}; a change of configuration ` +
        `emits ${events} with the previous one. ${INSTALLATION_ACCESS}`,
      params: targetParams,
      query: extendedQuery,
      body: z
        .strictObject({ configuration: ConfigurationInput.optional(), externalIds: ExternalIdsInput.optional() })
        .openapi(`UpdateIntegration${Kind}Installation`),
      bodyExample: { configuration: example.configuration, externalIds: example.externalIds },
      responses: { 200: { description: `The updated installation on the ${what}.`, schema, example } },
      errors: [403, 404],
      access: access.caller(),
      statements: 6,
    },
    uninstall: {
      method: 'delete',
      path: itemPath,
      tag: 'integrations',
      summary: `Uninstall an integration from a ${what}`,
      description:
        `Removes the installation from the ${what} and emits \`${kind}_installation_deleted\` with its last ` +
        `configuration. Needs the admin role in the organization of the installation (403 for other members). ` +
        `Succeeds with no content also when it was not installed there or the caller cannot see it.`,
      params: targetParams,
      responses: { 204: { description: `The integration is uninstalled from the ${what}.` } },
      errors: [403],
      access: access.caller(),
      statements: 5,
    },
  } satisfies Record<string, Operation>;
}
