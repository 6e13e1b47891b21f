// OpenAPI specifications of an organization and their versions.
import { DateTime, listExample, listOf, paginationQuery } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

// Ids of this area's examples.
const specId = 'oas_01JD3QE4R7NW5HZ';
const specSlug = 'acme-api';
const versionId = 'ver_01JD3QF6M2XK8TB';

/** A slug: groups of letters and digits joined by single hyphens. */
export const openAPISpecSlugPattern = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;

const MAX_SPEC_TEXT = 5 * 1024 * 1024;

const specLocation = `${ex.baseUrl}/v1/orgs/${ex.orgId}/openapi/${specSlug}`;
const versionLocation = `${specLocation}/versions/${versionId}`;

export const OpenAPISpecProcessingState = z
  .enum(['pending', 'progress', 'complete'])
  .openapi('OpenAPISpecProcessingState', {
    description: 'pending: waiting to be fetched and parsed; progress: being processed; complete: processing finished.',
    example: 'complete',
  });

export const OpenAPISpecProcessingErrorCode = z
  .enum(['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'])
  .openapi('OpenAPISpecProcessingErrorCode', {
    description: 'Why the last processing failed: the source URL timed out or could not be fetched, or the document could not be parsed.',
    example: 'FETCH_TIMEOUT',
  });

export const OpenAPISpecVisibility = z.enum(['private', 'public']).openapi('OpenAPISpecVisibility', {
  description: 'private: not publicly available; public: available to anyone with its public link.',
  example: 'private',
});

export const openAPISpecExample = {
  object: 'openapi-spec' as const,
  id: specId,
  createdAt: ex.createdAt,
  updatedAt: ex.updatedAt,
  slug: specSlug,
  sourceURL: 'https://acme.example.com/openapi.yaml',
  processingState: 'complete' as const,
  visibility: 'public' as const,
  lastVersion: versionId,
  lastProcessedAt: ex.updatedAt,
  lastProcessedErrorCount: 0,
  permissions: { view: true, edit: true },
  urls: {
    location: specLocation,
    app: `${ex.appUrl}/o/${ex.orgId}/openapi/${specSlug}`,
    published: `https://openapi.docs.example.com/${ex.orgId}/${specSlug}`,
  },
};

/** A specification just created: private, waiting to be processed, with no version yet. */
const createdOpenAPISpecExample = {
  object: 'openapi-spec' as const,
  id: specId,
  createdAt: ex.updatedAt,
  updatedAt: ex.updatedAt,
  slug: specSlug,
  sourceURL: 'https://acme.example.com/openapi.yaml',
  processingState: 'pending' as const,
  lastProcessedErrorCount: 0,
  visibility: 'private' as const,
  permissions: { view: true, edit: true },
  urls: { location: specLocation, app: `${ex.appUrl}/o/${ex.orgId}/openapi/${specSlug}` },
};

export const OpenAPISpec = z
  .object({
    object: z.literal('openapi-spec'),
    id: z.string(),
    createdAt: DateTime,
    updatedAt: DateTime,
    slug: z.string().regex(openAPISpecSlugPattern).openapi({ description: 'Name of the specification in its URLs, unique in the organization.' }),
    sourceURL: z.url().openapi(conditional('Where the specification is fetched from; absent when it was given as text.')).optional(),
    processingState: OpenAPISpecProcessingState,
    visibility: OpenAPISpecVisibility,
    lastVersion: z.string().openapi(conditional('Id of the latest version; absent until one is processed.')).optional(),
    lastProcessedAt: DateTime.openapi(conditional('When the last processing ended; absent until a first one ended.')).optional(),
    lastProcessErrorCode: OpenAPISpecProcessingErrorCode.optional(),
    lastProcessedErrors: z
      .array(z.object({ message: z.string(), code: z.string().optional() }))
      .optional()
      .openapi({ description: 'Problems found by the last processing.' }),
    lastProcessedErrorCount: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'How many problems the last processing reported in `lastProcessedErrors` (it keeps the first 20); 0 before any, and after a processing without.' }),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
    urls: z.object({
      location: z.url(),
      app: z.url(),
      published: z.url().openapi({
        description:
          'Public link, when the specification is public: its rendered reference, served by this server without a ' +
          'token (`<published>/openapi.json` is the latest version\'s document).',
      }).optional(),
    }),
  })
  .openapi('OpenAPISpec', { description: 'An OpenAPI specification of an organization.', example: openAPISpecExample });

export const openAPISpecVersionExample = {
  object: 'openapi-spec-version' as const,
  id: versionId,
  createdAt: ex.updatedAt,
  url: `https://files.docs.example.com/openapi/${specId}/${versionId}/openapi.yaml`,
  urls: { location: versionLocation },
};

export const OpenAPISpecVersion = z
  .object({
    object: z.literal('openapi-spec-version'),
    id: z.string(),
    createdAt: DateTime,
    url: z.url().openapi({
      description:
        'Where this version of the specification can be downloaded: for a public specification, its document, ' +
        'without a token; for a private one, getOpenAPISpecVersionContentById (the token is needed).',
    }),
    urls: z.object({ location: z.url() }),
  })
  .openapi('OpenAPISpecVersion', { description: 'One processed version of an OpenAPI specification.', example: openAPISpecVersionExample });

export const openAPISpecContentExample = {
  filesystem: {
    'openapi.yaml': {
      openapi: '3.1.0',
      info: { title: 'Acme API', version: '2.4.0' },
      paths: {},
    },
  },
  url: openAPISpecVersionExample.url,
  urls: {
    source: 'https://acme.example.com/openapi.yaml',
    // A public specification: its versions' `url` is the token-free one.
    public: openAPISpecVersionExample.url,
  },
};

export const OpenAPISpecContent = z
  .object({
    filesystem: z.looseObject({}).openapi({ description: 'The parsed files of the specification, free-form, by file path.' }),
    url: z.url().openapi({ description: 'Where the specification of this version can be downloaded.' }),
    urls: z
      .object({
        source: z.url().openapi({
          description:
            'Where this version\'s document comes from: the URL it was fetched from; for a specification given as text, ' +
            'where this server serves the document: the `url` of the version (without a token when the specification is public).',
        }),
        public: z
          .url()
          .nullable()
          .openapi({
            description:
              'Where anyone can read this version\'s document, without a token and from any origin (for "Try it" explorers): ' +
              'served by this server while the specification is public; null for a private one.',
          }),
      })
      .openapi({ description: 'URLs of this version\'s document.' }),
  })
  .openapi('OpenAPISpecContent', { description: 'The content of a version of an OpenAPI specification.', example: openAPISpecContentExample });

const OpenAPISpecSource = z
  .union([
    z.strictObject({ url: z.url().max(2048).openapi({ description: 'Where to fetch the specification from.' }) }),
    z.strictObject({
      text: z.string().min(1).max(MAX_SPEC_TEXT).openapi({ description: 'The specification itself, JSON or YAML (at most 5 MB).' }),
    }),
  ])
  .openapi('OpenAPISpecSource', {
    description: 'Where the specification comes from: a URL it is fetched from, or its text.',
    example: { url: 'https://acme.example.com/openapi.yaml' },
  });

const SpecParams = OrganizationIdParams.extend({
  specSlug: z
    .string()
    .min(1)
    .max(128)
    .regex(openAPISpecSlugPattern)
    .openapi({ description: 'The slug of the OpenAPI specification.', example: specSlug }),
});

const VersionParams = SpecParams.extend({
  versionId: z.string().min(1).max(128).openapi({ description: 'The id of the version.', example: versionId }),
});

const specResponse = (description: string) => ({ description, schema: OpenAPISpec, example: openAPISpecExample });
const versionResponse = (description: string) => ({ description, schema: OpenAPISpecVersion, example: openAPISpecVersionExample });
const contentResponse = (description: string) => ({ description, schema: OpenAPISpecContent, example: openAPISpecContentExample });
const createdSpecResponse = (description: string) => ({
  description,
  schema: OpenAPISpec,
  example: createdOpenAPISpecExample,
  headers: { Location: { description: 'URL of the created specification.', example: specLocation } },
});

export const openAPISpecOperations = operations({
  listOpenAPISpecs: {
    method: 'get',
    path: '/orgs/{organizationId}/openapi',
    tag: 'openapi',
    summary: 'List the OpenAPI specifications of an organization',
    description: 'Lists the OpenAPI specifications of an organization, in creation order.',
    params: OrganizationIdParams,
    query: z.object(paginationQuery),
    responses: {
      200: { description: 'A page of specifications.', schema: listOf('OpenAPISpecList', OpenAPISpec), example: listExample([openAPISpecExample]) },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  createOpenAPISpec: {
    method: 'post',
    path: '/orgs/{organizationId}/openapi',
    tag: 'openapi',
    summary: 'Create an OpenAPI specification',
    description:
      'Adds an OpenAPI specification to the organization, from a URL or from its text; it is then processed ' +
      '(`processingState` pending). A new specification is private. ' +
      'A slug the organization already uses is a conflict (409).',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        slug: z.string().min(1).max(100).regex(openAPISpecSlugPattern).openapi({ description: 'Name of the specification in its URLs.' }),
        source: OpenAPISpecSource,
      })
      .openapi('CreateOpenAPISpec'),
    bodyExample: { slug: specSlug, source: { url: 'https://acme.example.com/openapi.yaml' } },
    // `source.text` may hold a 5 MiB document.
    maxBodyBytes: 6 * 1024 * 1024,
    responses: { 201: createdSpecResponse('The created specification.') },
    errors: [403, 404, 409],
    access: access.organization('create'),
    statements: 3,
  },
  getOpenAPISpecBySlug: {
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    tag: 'openapi',
    summary: 'Get an OpenAPI specification',
    description: 'Returns an OpenAPI specification of the organization by its slug.',
    params: SpecParams,
    responses: { 200: specResponse('The specification.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  createOrUpdateOpenAPISpecBySlug: {
    method: 'put',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    tag: 'openapi',
    summary: 'Create or update an OpenAPI specification',
    description:
      'Sets the source of the specification with this slug and processes it again; creates the specification ' +
      '(private) when the organization has none with this slug.',
    params: SpecParams,
    body: z.strictObject({ source: OpenAPISpecSource }).openapi('CreateOrUpdateOpenAPISpec'),
    bodyExample: { source: { url: 'https://acme.example.com/openapi.yaml' } },
    // `source.text` may hold a 5 MiB document.
    maxBodyBytes: 6 * 1024 * 1024,
    responses: {
      200: specResponse('The updated specification.'),
      201: createdSpecResponse('The created specification.'),
    },
    errors: [403, 404],
    access: access.organization('create'),
    statements: 3,
  },
  deleteOpenAPISpecBySlug: {
    method: 'delete',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    tag: 'openapi',
    summary: 'Delete an OpenAPI specification',
    description:
      'Deletes an OpenAPI specification with its versions. Succeeds ' +
      'with no content also when the specification did not exist.',
    params: SpecParams,
    responses: { 204: { description: 'The specification is gone.' } },
    errors: [403],
    access: access.organization('create'),
    statements: 2,
  },
  updateOpenAPISpecBySlug: {
    method: 'patch',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    tag: 'openapi',
    summary: 'Change the visibility of an OpenAPI specification',
    description:
      'Makes an OpenAPI specification private or public (available to anyone with its public link, `urls.published`, ' +
      'and its versions\' `url`, without a token). Made private, its public URLs answer 404 from the next request on.',
    params: SpecParams,
    body: z.strictObject({ visibility: OpenAPISpecVisibility }).openapi('UpdateOpenAPISpec'),
    bodyExample: { visibility: 'public' },
    responses: { 200: specResponse('The updated specification.') },
    errors: [403, 404],
    access: access.organization('create'),
    statements: 2,
  },
  listOpenAPISpecVersions: {
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions',
    tag: 'openapi',
    summary: 'List the versions of an OpenAPI specification',
    description: 'Lists the processed versions of a specification, newest first. An unknown specification is not found.',
    params: SpecParams,
    query: z.object(paginationQuery),
    responses: {
      200: {
        description: 'A page of versions.',
        schema: listOf('OpenAPISpecVersionList', OpenAPISpecVersion),
        example: listExample([openAPISpecVersionExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  getLatestOpenAPISpecVersion: {
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest',
    tag: 'openapi',
    summary: 'Get the latest version of an OpenAPI specification',
    description: 'Returns the latest processed version of a specification; not found when it has none yet.',
    params: SpecParams,
    responses: { 200: versionResponse('The latest version.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  getLatestOpenAPISpecVersionContent: {
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
    tag: 'openapi',
    summary: 'Get the content of the latest version of an OpenAPI specification',
    description: 'Returns the parsed files of the latest processed version of a specification; not found when it has none yet.',
    params: SpecParams,
    responses: { 200: contentResponse('The content of the latest version.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  getOpenAPISpecVersionById: {
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
    tag: 'openapi',
    summary: 'Get a version of an OpenAPI specification',
    description: 'Returns one version of a specification. An unknown specification or version is not found.',
    params: VersionParams,
    responses: { 200: versionResponse('The version.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  getOpenAPISpecVersionContentById: {
    method: 'get',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
    tag: 'openapi',
    summary: 'Get the content of a version of an OpenAPI specification',
    description: 'Returns the parsed files of one version of a specification. An unknown specification or version is not found.',
    params: VersionParams,
    responses: { 200: contentResponse('The content of the version.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
});
