// Space content: revisions, pages, files, links and backlinks (GET /spaces/{spaceId}/content…).
import { paginationQuery, queryBoolean } from './common.js';
import {
  BacklinkItemList,
  backlinkItemListExample,
  fileId,
  LinkItemList,
  linkItemListExample,
  LinkStatus,
  pageId,
  Revision,
  revisionExample,
  RevisionFile,
  revisionFileExample,
  RevisionFileList,
  revisionFileListExample,
  RevisionPage,
  revisionPageExample,
  RevisionPages,
  revisionPagesExample,
} from './content-schemas.js';
import { ContentRef } from './document.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { SpaceIdParams } from './spaces.js';
import { z } from './zod.js';

export const changeRequestId = 'crq_01JD3QG5P8TN2WA';

/** `metadata` and `computed`: shared by every read of space and change-request content. */
export const contentQuery = {
  metadata: queryBoolean('Include mutable metadata (default true): `false` omits the Git metadata (`git`) of the revision, its pages and its files.').optional(),
  computed: queryBoolean('Compute the content of computed pages and reusable contents (default true; false skips it).').optional(),
};

/** The query of a page read: output format, evaluation of expressions, metadata and computed content. */
export const pageQuery = {
  format: z
    .enum(['document', 'markdown'])
    .optional()
    .openapi({
      description: 'Form of the page content: `document` (default) in `document`, as a rich-text document; `markdown` in `markdown`.',
    }),
  evaluated: z
    .enum(['true', 'false', 'deterministic-only'])
    .optional()
    .openapi({
      description:
        'Evaluate the expressions of the content: `true`, `false` (default), or `deterministic-only` (only expressions with deterministic inputs).',
    }),
  ...contentQuery,
};

/** `status`: filters a link list. */
export const linkStatusQuery = {
  status: LinkStatus.openapi({ description: 'Only the links with this status (default: all).' }).optional(),
};

export const FileIdParam = z.string().min(1).max(128).openapi({ description: 'The id of the file.', example: fileId });
export const PageIdParam = z.string().min(1).max(128).openapi({ description: 'The id of the page.', example: pageId });

const SpaceFileParams = SpaceIdParams.extend({ fileId: FileIdParam });
const SpacePageParams = SpaceIdParams.extend({ pageId: PageIdParam });

export const contentOperations = operations({
  getCurrentRevision: {
    method: 'get',
    path: '/spaces/{spaceId}/content',
    tag: 'content',
    summary: 'Get the current revision of a space',
    description:
      'Returns the current revision of the space content: its page tree, files, reusable contents and variables. ' +
      '404 when the space does not exist or the caller cannot read it.',
    params: SpaceIdParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The current revision.', schema: Revision, example: revisionExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  applyTemplateToSpace: {
    method: 'post',
    path: '/spaces/{spaceId}/content/template',
    tag: 'content',
    summary: 'Apply a template to a space',
    description:
      'Fills the space with the content of the built-in template `id` (`getting-started`, `api-reference`, ' +
      '`knowledge-base` or `changelog`) as one new revision: its pages are added after the existing top-level pages, ' +
      'nothing is replaced, and a slug already taken gets a numeric suffix. `params.contentRefs` names the content the ' +
      'template links to (`api-reference`: `spec`, an `openapi`, `url` or `file` reference; `knowledge-base`: `support`, ' +
      'a `url` or `page`); a name the template does not use, or a reference of another kind, is refused (400). With ' +
      '`changeRequestId`, the template is applied in that change request instead of the live content. 404 when the ' +
      'space, template or change request does not exist; 409 when the space is locked or the change request is merged or archived.',
    params: SpaceIdParams,
    body: z
      .strictObject({
        id: z.string().min(1).max(128).openapi({ description: 'Id of the template.' }),
        params: z
          .strictObject({
            contentRefs: z
              .record(z.string().min(1).max(100), ContentRef)
              .optional()
              .openapi({ description: 'Content references the template uses, by name.' }),
          })
          .optional(),
        changeRequestId: z
          .string()
          .min(1)
          .max(128)
          .optional()
          .openapi({ description: 'Id of a change request of the space to apply the template in.' }),
      })
      .openapi('ApplySpaceTemplate'),
    bodyExample: {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'openapi', spec: 'petstore' } } },
      changeRequestId,
    },
    responses: { 204: { description: 'The template is applied.' } },
    errors: [403, 404, 409],
    access: access.space('edit'),
    // One more than before 9.6.1: the write indexes the pages it added as it commits, their Documents read
    // back for it (server/search/index-at-commit.ts).
    statements: 9,
  },
  listPages: {
    method: 'get',
    path: '/spaces/{spaceId}/content/pages',
    tag: 'content',
    summary: 'List the pages of a space',
    description: 'Returns the page tree of the current revision of the space: the top-level pages, each with its child pages. 404 when the space does not exist.',
    params: SpaceIdParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The page tree.', schema: RevisionPages, example: revisionPagesExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listFiles: {
    method: 'get',
    path: '/spaces/{spaceId}/content/files',
    tag: 'content',
    summary: 'List the files of a space',
    description: 'Lists the files of the current revision of the space. 404 when the space does not exist.',
    params: SpaceIdParams,
    query: z.object({ ...paginationQuery, ...contentQuery }),
    responses: { 200: { description: 'A page of files.', schema: RevisionFileList, example: revisionFileListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getFileById: {
    method: 'get',
    path: '/spaces/{spaceId}/content/files/{fileId}',
    tag: 'content',
    summary: 'Get a file of a space',
    description: 'Returns a file of the current revision of the space. 404 when the space or the file does not exist.',
    params: SpaceFileParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The file.', schema: RevisionFile, example: revisionFileExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listSpaceFileBacklinks: {
    method: 'get',
    path: '/spaces/{spaceId}/content/files/{fileId}/backlinks',
    tag: 'content',
    summary: 'List the backlinks of a file',
    description:
      'Lists the places in content that refer to a file of the space. 404 when the space or the file does not exist.',
    params: SpaceFileParams,
    query: z.object(paginationQuery),
    responses: { 200: { description: 'A page of backlinks.', schema: BacklinkItemList, example: backlinkItemListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getPageById: {
    method: 'get',
    path: '/spaces/{spaceId}/content/page/{pageId}',
    tag: 'content',
    summary: 'Get a page of a space',
    description:
      'Returns a page of the current revision of the space, with its content in the requested `format`. ' +
      '404 when the space or the page does not exist.',
    params: SpacePageParams,
    query: z.object(pageQuery),
    responses: { 200: { description: 'The page.', schema: RevisionPage, example: revisionPageExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listSpacePageLinks: {
    method: 'get',
    path: '/spaces/{spaceId}/content/page/{pageId}/links',
    tag: 'content',
    summary: 'List the links of a page',
    description:
      'Lists the links found in a page of the current revision, with their status (optionally only those with the ' +
      'given `status`), and counts of all and broken links. 404 when the space or the page does not exist.',
    params: SpacePageParams,
    query: z.object({ ...paginationQuery, ...linkStatusQuery }),
    responses: { 200: { description: 'A page of links, with statistics.', schema: LinkItemList, example: linkItemListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listSpacePageBacklinks: {
    method: 'get',
    path: '/spaces/{spaceId}/content/page/{pageId}/backlinks',
    tag: 'content',
    summary: 'List the backlinks of a page',
    description:
      'Lists the places in content that link to a page of the space. 404 when the space or the page does not exist.',
    params: SpacePageParams,
    query: z.object(paginationQuery),
    responses: { 200: { description: 'A page of backlinks.', schema: BacklinkItemList, example: backlinkItemListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listSpaceLinks: {
    method: 'get',
    path: '/spaces/{spaceId}/links',
    tag: 'spaces',
    summary: 'List the links of a space',
    description:
      'Lists the links found in the current content of the space, with their status (optionally only those with the ' +
      'given `status`), and counts of all and broken links. 404 when the space does not exist.',
    params: SpaceIdParams,
    query: z.object({ ...paginationQuery, ...linkStatusQuery }),
    responses: { 200: { description: 'A page of links, with statistics.', schema: LinkItemList, example: linkItemListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
});
