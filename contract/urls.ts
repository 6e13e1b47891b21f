// URL resolution for docs front ends (headless rendering): which site, section, site space, space, revision
// and page a published URL shows, and a short-lived API token to read that site's published content with.
// The published site answers its own pages through the same resolution (server/headless/).
import { access } from './access.js';
import { operations } from './operation.js';
import { queryBoolean } from './common.js';
import { siteEx } from './site-schemas.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

const URL = z.url({ protocol: /^https?$/ }).max(2048);

export const SiteVisitorPayload = z
  .strictObject({
    type: z.enum(['human', 'agent']).optional().openapi({ description: 'Whether the visitor is a human or an AI agent (human when omitted).' }),
    jwtToken: z.string().min(1).max(8192).optional().openapi({ description: 'The visitor\'s token (a JWT signed with the site\'s visitor key, HS256).' }),
    unsignedClaims: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Unsigned claims of the visitor, kept only where the site\'s adaptive schema declares them.' }),
  })
  .openapi('SiteVisitorPayload', { description: 'The visitor: a JWT with signed claims and/or unsigned claims.' });

export const PublishedContentRedirect = z
  .union([
    z.object({
      target: z.enum(['application', 'content']).openapi({ description: '`content`: another URL of the site (a redirect of the site, a moved page, a group\'s first page); `application`: where visitors sign in.' }),
      redirect: z.string().openapi({ description: 'The URL to go to.' }),
    }),
    z.object({
      target: z.literal('external'),
      site: z.string().openapi({ description: 'The site whose redirect leads out of it.' }),
      redirect: z.string().openapi({ description: 'The URL to go to.' }),
    }),
  ])
  .openapi('PublishedContentRedirect');

export const PublishedSiteContent = z
  .object({
    site: z.string().openapi({ description: 'The site.' }),
    organization: z.string().openapi({ description: 'The site\'s organization.' }),
    siteSection: z.string().optional().openapi(conditional('The section the URL is in; absent when the site has no sections.')),
    siteSpace: z.string().openapi({ description: 'The site space the URL shows.' }),
    space: z.string().openapi({ description: 'Its space.' }),
    revision: z.string().optional().openapi({ description: 'The published revision of the space (its current one).' }),
    changeRequest: z.string().optional().openapi({ description: 'The change request previewed at the URL (never, for a published URL).' }),
    pathname: z.string().openapi({ description: 'The page path in the space, relative to `basePath` (`` for the site space\'s first page).' }),
    basePath: z.string().openapi({ description: 'The path of the site space in the URL (ending with `/`).' }),
    siteBasePath: z.string().openapi({ description: 'The path of the site\'s home in the URL (ending with `/`; with a share-link site\'s key).' }),
    apiToken: z.string().openapi({
      description:
        'A token (Bearer) that reads the published content of this site the visitor may see, and nothing else: the ' +
        'spaces of the site spaces the visitor may see, their current revision, pages and files, and the site\'s ' +
        'customization. Valid 15 minutes; any write is refused (403).',
    }),
    shareKey: z.string().optional().openapi({ description: 'The key of a share-link site.' }),
    complete: z.boolean().openapi({ description: 'Whether the URL named its section and site space (else defaults were taken).' }),
    canonicalUrl: z.string().openapi({ description: 'The canonical URL of the content.' }),
    page: z.string().optional().openapi({ description: 'The page the URL shows, when it names one the visitor may read.' }),
    preview: z.boolean().optional().openapi({ description: 'Whether the URL previews unpublished content (never, here).' }),
  })
  .openapi('PublishedSiteContent');

export const PublishedSiteContentLookup = z.union([PublishedContentRedirect, PublishedSiteContent]).openapi('PublishedSiteContentLookup');

const lookupExample = {
  site: siteEx.siteId,
  organization: 'org_01JD3QA1B2C3D4E',
  siteSection: siteEx.siteSectionId,
  siteSpace: siteEx.siteSpaceId,
  space: 'spc_01JD3QC5D6E7F8G',
  revision: 'rev_01JD3QD9E0F1G2H',
  pathname: 'quickstart',
  basePath: '/developers/getting-started/',
  siteBasePath: '/developers/',
  apiToken: 'dwst_eyJzIjoic2l0XzAxSkQzUUU0UjdITjJXWCJ9.c2lnbmF0dXJl',
  complete: true,
  canonicalUrl: `${siteEx.publishedUrl}/getting-started/quickstart`,
  page: 'pag_01JD3QM5B8SH5TF',
};

const description =
  'Resolves a URL of a published site, as the site itself serves it (its host, or this server\'s path of the site; ' +
  'sections, site spaces, a share-link site\'s key, visitor tokens and adaptive claims, conditions of pages): the ' +
  'site content with an API token to read it, or a redirect (a group\'s first page, the site\'s redirects, a page that ' +
  'moved; `application` to sign in, with `redirectOnError`, when the visitor token is missing or not valid). A URL of no ' +
  'site, of an unpublished site, or of content the visitor may not see is not found (404), with nothing telling which.';

export const urlOperations = operations({
  getPublishedContentByUrl: {
    method: 'get',
    path: '/urls/published',
    tag: 'urls',
    summary: 'Resolve a URL to published content',
    description,
    query: z.object({
      url: URL.openapi({ description: 'The URL to resolve.', example: `${siteEx.publishedUrl}/getting-started/quickstart` }),
      // 2048 at most, so a URL and a token escaped (three bytes each) stay within the request line Node accepts (16 KiB).
      visitorAuthToken: z.string().min(1).max(2048).optional().openapi({ description: 'The visitor\'s token (JWT) of a visitor-auth or adaptive site; a longer one goes in the body of the POST form.' }),
      redirectOnError: queryBoolean('Whether a missing or invalid visitor token answers a redirect to where visitors sign in.').default(false),
    }),
    responses: { 200: { description: 'The content, or a redirect.', schema: PublishedSiteContentLookup, example: lookupExample } },
    errors: [404],
    access: access.caller(),
    // One: the site, with what resolving the path needs that this process does not hold (the page trees the
    // path can lead to, without Documents, and the site's live redirects) in the same statement; none once
    // all is held. One more for each thing needed and not held when the site is (a tree, the redirects), and
    // for each revision not held that a page that moved is looked for in: docs/headless.md, "What a resolution costs".
    statements: 1,
  },
  resolvePublishedContentByUrl: {
    method: 'post',
    path: '/urls/published',
    tag: 'urls',
    summary: 'Resolve a URL to published content, for a visitor',
    description: `${description} The visitor's token and unsigned claims come in the body.`,
    body: z
      .strictObject({
        url: URL.openapi({ description: 'The URL to resolve.' }),
        redirectOnError: z.boolean().default(false),
        visitor: SiteVisitorPayload.optional(),
      })
      .openapi('ResolvePublishedContentByUrl'),
    bodyExample: { url: `${siteEx.publishedUrl}/getting-started/quickstart`, visitor: { unsignedClaims: { isBetaUser: true } } },
    responses: { 200: { description: 'The content, or a redirect.', schema: PublishedSiteContentLookup, example: lookupExample } },
    errors: [404],
    access: access.caller(),
    // As getPublishedContentByUrl.
    statements: 1,
  },
});
