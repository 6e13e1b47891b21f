// Redirects of a docs site: a source path under the site's URL and its destination. Live redirects are
// applied by the published site and by URL resolution (getPublishedContentByUrl); drafts wait to be published.
import { DateTime, listExample, listOf, paginationQuery, queryBoolean } from './common.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { shareKeyQuery, SiteIdParams, siteEx } from './site-schemas.js';
import { z } from './zod.js';

export const redirectEx = { siteRedirectId: 'srd_01JD3QK2A7RG4SE', pageId: 'pag_01JD3QM5B8SH5TF' } as const;

export const SiteRedirectIdParams = SiteIdParams.extend({
  siteRedirectId: z.string().min(1).max(128).openapi({ description: 'The unique id of the site redirect.', example: redirectEx.siteRedirectId }),
});

export const SiteRedirectSourcePath = z
  .string()
  .max(512)
  // The public API's pattern without its two lookaheads, which the segments' characters (no `*`) already imply.
  .regex(/^\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/, {
    message: 'a path starting with `/`, of unreserved characters and percent escapes, that may end with `*` or `/*`',
  })
  .openapi('SiteRedirectSourcePath', {
    description:
      'The path, under the site\'s URL (after a share-link site\'s key), to redirect from. Ending with `*` (or `/*`) it ' +
      'matches every path it starts (`/old/*` matches `/old` and `/old/a/b`); else only itself (a trailing `/` aside).',
    example: '/old/getting-started',
  });

const DestinationSection = z
  .object({ kind: z.literal('site-section'), siteSectionId: z.string().min(1).openapi({ description: 'The section to redirect to.' }) })
  .openapi('SiteRedirectDestinationSiteSection');
const DestinationSiteSpace = z
  .object({ kind: z.literal('site-space'), siteSpaceId: z.string().min(1).openapi({ description: 'The site space to redirect to.' }) })
  .openapi('SiteRedirectDestinationSiteSpace');
const DestinationPage = z
  .object({
    kind: z.literal('site-page'),
    siteSpaceId: z.string().min(1).openapi({ description: 'The site space of the page.' }),
    pageId: z.string().min(1).openapi({ description: 'The page, in the site space\'s space, to redirect to (at its path in the current revision).' }),
  })
  .openapi('SiteRedirectDestinationPage');
const DestinationExternal = z
  .object({ kind: z.literal('external'), url: z.url({ protocol: /^https?$/ }).max(2048).openapi({ description: 'An http(s) URL.' }) })
  .openapi('SiteRedirectDestinationExternal');
const DestinationPath = z
  .object({
    kind: z.literal('path'),
    spaceId: z.string().min(1).openapi({ description: 'A space the site publishes.' }),
    path: z.string().min(1).max(2048).openapi({ description: 'The path of a page in the space\'s current revision; stored as that page (`site-page`).' }),
  })
  .openapi('SiteRedirectInputDestinationPath');

export const SiteRedirectDestination = z
  .discriminatedUnion('kind', [DestinationSection, DestinationSiteSpace, DestinationPage, DestinationExternal])
  .openapi('SiteRedirectDestination', { description: 'Where a redirect leads.' });

export const SiteRedirectInputDestination = z
  .discriminatedUnion('kind', [DestinationSection, DestinationSiteSpace, DestinationPage, DestinationExternal, DestinationPath])
  .openapi('SiteRedirectInputDestination', {
    description: 'Where a redirect leads; a `path` destination names a page by its path and is stored as that page. Every id must be of the site (404 otherwise, naming it).',
  });

export const siteRedirectExample = {
  object: 'site-redirect' as const,
  id: redirectEx.siteRedirectId,
  source: '/old/getting-started',
  draft: false,
  captureWildcard: false,
  permanent: true,
  destination: { kind: 'site-page' as const, siteSpaceId: siteEx.siteSpaceId, pageId: redirectEx.pageId },
  createdAt: '2026-03-14T09:26:53.000Z',
};

export const SiteRedirect = z
  .object({
    object: z.literal('site-redirect'),
    id: z.string(),
    source: SiteRedirectSourcePath,
    draft: z.boolean().openapi({ description: 'Whether the redirect is a draft (not applied).' }),
    captureWildcard: z.boolean().openapi({ description: 'Whether the part of the path the `*` matched is appended to the destination.' }),
    permanent: z.boolean().openapi({
      description: 'Permanent redirects are answered 308 on public and unlisted sites, 307 elsewhere; the others 307.',
    }),
    destination: SiteRedirectDestination,
    createdAt: DateTime,
    updatedAt: DateTime.optional().openapi({ description: 'Absent until the redirect is first updated.' }),
  })
  .openapi('SiteRedirect', { example: siteRedirectExample });

const redirectResponse = (description: string) => ({ description, schema: SiteRedirect, example: siteRedirectExample });

export const SiteRedirectOrderBy = z.enum(['createdAt', 'updatedAt', 'source']).openapi('SiteRedirectOrderBy', {
  description:
    '`createdAt`: most recently created first; `updatedAt`: most recently updated first (never-updated ones by their creation); `source`: by source path.',
});

const live = { intent: 'live' as const };
const bulkItem = z.union([
  z.strictObject({
    source: SiteRedirectSourcePath,
    intent: z.literal('publish').openapi({ description: 'Publish the draft redirect of this source: it replaces the live one, and the draft goes.' }),
  }),
  z.strictObject({
    source: SiteRedirectSourcePath,
    intent: z.enum(['live', 'draft']).default('live').openapi({ description: 'Whether to upsert (or delete) the live or the draft redirect of this source.' }),
    captureWildcard: z.boolean().default(false),
    permanent: z.boolean().optional(),
    destination: SiteRedirectInputDestination.nullable().openapi({ description: '`null` deletes the redirect of this source and intent.' }),
  }),
]);

const bulkResult = z.union([
  z.object({ status: z.literal('created'), source: z.string(), draft: z.boolean(), id: z.string() }),
  z.object({ status: z.literal('updated'), source: z.string(), draft: z.boolean(), id: z.string() }),
  z.object({ status: z.literal('deleted'), source: z.string(), draft: z.boolean() }),
  z.object({ status: z.literal('published'), source: z.string(), draft: z.literal(false), id: z.string() }),
  z.object({ status: z.literal('error'), source: z.string(), draft: z.boolean(), error: z.string() }),
]);

export const siteRedirectOperations = operations({
  listSiteRedirects: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}/redirects',
    tag: 'sites',
    summary: 'List the redirects of a site',
    description:
      'Lists the live redirects of a site (`draft=true`: the drafts), sorted by `orderBy` (default `createdAt`, newest first). ' +
      '`search` keeps those whose source path contains it (case-insensitive). An unknown site is not found (404).',
    params: SiteIdParams,
    query: z.object({
      ...paginationQuery,
      search: z.string().min(1).max(512).optional().openapi({ description: 'Text the source path contains.' }),
      draft: queryBoolean('Whether to list the draft redirects instead of the live ones.').default(false),
      orderBy: SiteRedirectOrderBy.default('createdAt'),
    }),
    responses: { 200: { description: 'A page of redirects.', schema: listOf('SiteRedirectList', SiteRedirect), example: listExample([siteRedirectExample]) } },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  createSiteRedirect: {
    method: 'post',
    path: '/orgs/{organizationId}/sites/{siteId}/redirects',
    tag: 'sites',
    summary: 'Create a site redirect',
    description:
      'Creates a redirect from `source` to `destination` (live unless `draft`). A destination naming a section, site space or ' +
      'page that is not the site\'s is not found (404, naming it); a source that already has a redirect of the same kind ' +
      '(live or draft) is a conflict (409). An unknown site is not found (404).',
    params: SiteIdParams,
    body: z
      .strictObject({
        source: SiteRedirectSourcePath,
        captureWildcard: z.boolean().default(false),
        draft: z.boolean().default(false),
        permanent: z.boolean().default(false),
        destination: SiteRedirectInputDestination,
      })
      .openapi('CreateSiteRedirect'),
    bodyExample: { source: '/old/getting-started', permanent: true, destination: { kind: 'site-page', siteSpaceId: siteEx.siteSpaceId, pageId: redirectEx.pageId } },
    responses: { 201: redirectResponse('The created redirect.') },
    errors: [403, 404, 409],
    access: access.organization('admin'),
    statements: 5,
  },
  bulkUpsertSiteRedirects: {
    method: 'put',
    path: '/orgs/{organizationId}/sites/{siteId}/redirects',
    tag: 'sites',
    summary: 'Create, update, delete or publish site redirects in bulk',
    description:
      'Processes up to 500 redirects, each on its own: an upsert of the live or draft redirect of a source (`destination: null` ' +
      'deletes it), or `intent: publish`, which makes the draft of a source live. Each item has its result; an item that cannot ' +
      'be applied (an unknown destination, no draft to publish) has an `error` result and the others are still applied. An unknown site is not found (404).',
    params: SiteIdParams,
    body: z.strictObject({ redirects: z.array(bulkItem).min(1).max(500) }).openapi('BulkUpsertSiteRedirects'),
    bodyExample: { redirects: [{ source: '/old/*', ...live, captureWildcard: true, destination: { kind: 'external', url: 'https://example.com/new' } }] },
    responses: {
      200: {
        description: 'The result of each redirect, in the order given.',
        schema: z.object({ results: z.array(bulkResult) }).openapi('BulkUpsertSiteRedirectsResult'),
        example: { results: [{ status: 'created', source: '/old/*', draft: false, id: redirectEx.siteRedirectId }] },
      },
    },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 10,
  },
  updateSiteRedirectById: {
    method: 'patch',
    path: '/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}',
    tag: 'sites',
    summary: 'Update a site redirect',
    description:
      'Changes the given fields of a redirect; `draft: false` makes a draft live (replacing the live redirect of its source). ' +
      'A source taken by another redirect of the same kind is a conflict (409). An unknown site or redirect is not found (404).',
    params: SiteRedirectIdParams,
    body: z
      .strictObject({
        source: SiteRedirectSourcePath.optional(),
        captureWildcard: z.boolean().optional(),
        draft: z.boolean().optional(),
        permanent: z.boolean().optional(),
        destination: SiteRedirectInputDestination.optional(),
      })
      .openapi('UpdateSiteRedirect'),
    bodyExample: { permanent: false },
    responses: { 200: redirectResponse('The updated redirect.') },
    errors: [403, 404, 409],
    access: access.organization('admin'),
    statements: 5,
  },
  deleteSiteRedirectById: {
    method: 'delete',
    path: '/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}',
    tag: 'sites',
    summary: 'Delete a site redirect',
    description:
      'Deletes a redirect, live or draft: 205 when it was deleted, 204 when it did not exist (as the public API answers). ' +
      'An unknown site is not found (404).',
    params: SiteRedirectIdParams,
    responses: { 204: { description: 'The site redirect did not exist.' }, 205: { description: 'The site redirect is deleted.' } },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 3,
  },
  getSiteRedirectBySource: {
    method: 'get',
    path: '/orgs/{organizationId}/sites/{siteId}/redirect',
    tag: 'sites',
    summary: 'Resolve a site redirect by its source',
    description:
      'The live redirect a request to `source` follows (an exact source first, then the longest `*` source matching it) and the ' +
      'URL it leads to. Not found (404) when none applies, when its destination no longer exists, or when the site is ' +
      'not published; a share-link site needs its `shareKey` for the URL (404 with a wrong one).',
    params: SiteIdParams,
    query: z.object({ source: SiteRedirectSourcePath, shareKey: shareKeyQuery }),
    responses: {
      200: {
        description: 'The redirect and its target URL.',
        schema: z
          .object({ redirect: SiteRedirect, target: z.string().openapi({ description: 'The URL the redirect leads to.' }) })
          .openapi('SiteRedirectResolution'),
        example: { redirect: siteRedirectExample, target: `${siteEx.publishedUrl}/getting-started/quickstart` },
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
});

