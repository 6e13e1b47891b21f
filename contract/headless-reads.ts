// Reads a docs renderer makes for a published site beyond the content reads of revisions.ts: a page's meta
// links (its alternates in the other languages of its space's translations) and the search of a site. Both are
// operations of GitBook's API (same ids, paths and shapes), so GitBook's own renderer reads them here.
import { paginationQuery } from './common.js';
import { SearchOrganizationResultList, searchOrganizationResultListExample } from './content-schemas.js';
import { PageIdParam } from './content.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { SiteIdParams } from './site-schemas.js';
import { SpaceIdParams } from './spaces.js';
import { z } from './zod.js';

const RevisionPageParams = SpaceIdParams.extend({
  revisionId: z.string().min(1).max(128).openapi({ description: 'The id of the revision.', example: ex.revisionId }),
  pageId: PageIdParam,
});

export const RevisionPageMetaLinkTarget = z
  .union([
    z.object({
      kind: z.literal('page'),
      page: z.string().openapi({ description: 'The page.' }),
      space: z.string().optional().openapi({ description: 'The space the page is in (the space read when absent).' }),
    }),
    z.object({ kind: z.literal('url'), url: z.string() }),
  ])
  .openapi('RevisionPageMetaLinkTarget', { description: 'Where a meta link leads: a page (of a space), or a URL.' });

export const RevisionPageMetaLinks = z
  .object({
    canonical: RevisionPageMetaLinkTarget.optional().openapi({
      description: 'Where the page\'s canonical version is, when it is not the page itself (never, here: each page is its own).',
    }),
    alternates: z.array(RevisionPageMetaLinkTarget).openapi({
      description:
        'The same page in the other languages of its content: the spaces of the same translations (the source space and ' +
        'the result spaces of its translations) whose current revision has the page, by its id.',
    }),
  })
  .openapi('RevisionPageMetaLinks', { description: 'The meta links of a page (for `<link rel="canonical">` and `hreflang` alternates).' });

const siteSpaceIdList = z.array(z.string().min(1).max(128)).min(1).max(100);

export const SiteSearchScope = z
  .discriminatedUnion('mode', [
    z.object({
      mode: z.literal('default').openapi({
        description: 'The default site space of each section (or of the site), with `currentSiteSpace` when given.',
      }),
      currentSiteSpace: z.string().min(1).max(128).optional().openapi({ description: 'The site space the search is made from: always searched, first.' }),
      restrictTo: z.enum(['currentSiteSpace', 'otherSiteSpaces']).optional().openapi({
        description: '`currentSiteSpace`: only it; `otherSiteSpaces`: the default scope without it. Needs `currentSiteSpace`.',
      }),
    }),
    z.object({ mode: z.literal('specific'), siteSpaceIds: siteSpaceIdList.openapi({ description: 'The site spaces to search.' }) }),
    z.object({ mode: z.literal('all').openapi({ description: 'Every site space of every section.' }) }),
  ])
  .openapi('SiteSearchScope', { description: 'Which site spaces a site search covers.' });

export const SearchSiteContentBody = z
  .object({
    query: z.string().min(1).max(512).openapi({ description: 'The text to search for.', example: 'install the CLI' }),
    scope: SiteSearchScope.optional().openapi({ description: 'What to search (`default` when absent, and no `mode` is given).' }),
    mode: z.enum(['specific', 'current', 'all']).optional().openapi({
      description: 'Deprecated form of `scope`: `specific` with `siteSpaceIds`, `current` with `siteSpaceId`, `all`.',
      deprecated: true,
    }),
    siteSpaceId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: "With `mode: current`: the current site space, searched first. GitBook requires it; without it here, `current` searches the sections' default site spaces.", deprecated: true }),
    siteSpaceIds: siteSpaceIdList.optional().openapi({ description: 'With `mode: specific` (or no mode): the site spaces to search.', deprecated: true }),
  })
  .openapi('SearchSiteContentRequest');

export const headlessReadOperations = operations({
  listRevisionPageMetaLinks: {
    method: 'get',
    path: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
    tag: 'content',
    summary: 'List the meta links of a page of a revision',
    description:
      'Returns the meta links of a page as a renderer puts them in its `<head>`: `alternates`, the same page (by id) in ' +
      'the other spaces of its translations (the space a translation was made from and the result spaces of its ' +
      'translations, not in the trash) at their current revision, that the caller can read. 404 when the space does not ' +
      'exist or the caller cannot read it, the revision is not one of the space\'s, or the page is not in it.',
    params: RevisionPageParams,
    responses: {
      200: {
        description: 'The page\'s meta links.',
        schema: RevisionPageMetaLinks,
        example: { alternates: [{ kind: 'page', page: 'pag_01JD3QM5B8SH5TF', space: ex.spaceId2 }] },
      },
    },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  searchSiteContent: {
    method: 'post',
    path: '/orgs/{organizationId}/sites/{siteId}/search',
    tag: 'sites',
    summary: 'Search the content of a site',
    description:
      'Searches the content the site shows, in the site spaces of `scope` (by default: the default site space of each ' +
      'section, with `currentSiteSpace` first), for `query`. Each result is a space with its matching pages, the spaces ' +
      'in the order of the scope. Only what a visitor may read is searched: site spaces and sections whose condition ' +
      'holds, pages whose condition holds (with a site API token, for its visitor\'s claims; for a member, as a visitor ' +
      'without claims), no `noIndex` page. Site spaces of the scope that are not the site\'s, or not shown, are left out. ' +
      '400 for `restrictTo` without `currentSiteSpace`; 404 when the site does not exist.',
    params: SiteIdParams,
    query: z.object(paginationQuery),
    body: SearchSiteContentBody,
    bodyExample: { query: 'install the CLI', scope: { mode: 'default', currentSiteSpace: 'sitesp_01JD3QF6V0K2N8W' } },
    responses: {
      200: { description: 'A page of spaces with matching pages.', schema: SearchOrganizationResultList, example: searchOrganizationResultListExample },
    },
    errors: [400, 404],
    access: access.organization('read'),
    // The site and its structure, then per space searched the space search (searchSpaceContent's, which brings
    // its index up to date first) and its page tree: a site of one or two spaces.
    statements: 24,
  },
});
