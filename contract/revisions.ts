// Reading a space's content as a docs renderer does (docs/headless-reads.md): any revision of the space by
// its id (GET /spaces/{spaceId}/revisions/{revisionId}…), a page by its path, the documents of pages and
// reusable contents by id (documents computed from a source: computed-content.ts).
import { paginationQuery, queryBoolean } from './common.js';
import { contentQuery, FileIdParam, PageIdParam, pageQuery } from './content.js';
import {
  fileId,
  reusableContentId,
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
  RevisionReusableContent,
  revisionReusableContentExample,
} from './content-schemas.js';
import { Document, documentExample } from './document.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { SpaceIdParams } from './spaces.js';
import { z } from './zod.js';

export const documentId = 'doc_cmV2XzAxSkQzUTdGMlY2Uk0wQjpwYWdfMDFKRDNRRDRUN1dYOUtN';

/** How a document read expands references (docs/headless-reads.md). */
const dereferenced = z
  .enum(['true', 'false', 'reusable-contents'])
  .optional()
  .openapi({
    description:
      'Expand references in the document: `false` (default) leaves them; `reusable-contents` replaces each ' +
      '`reusable-content` block with the blocks of that reusable content in the same revision; `true` expands every ' +
      'reference to content stored here that a document can include: reusable contents of the revision and those of ' +
      'other spaces (`ref.space`) the caller may read, recursively (8 levels at most, a cycle stops). A block whose ' +
      'content cannot be read stays as it is.',
  });

/** `evaluated`: expressions and conditional blocks, evaluated for the reader (docs/headless-reads.md). */
const evaluated = z
  .enum(['true', 'false', 'deterministic-only'])
  .optional()
  .openapi({
    description:
      'Evaluate the document for its reader: `false` (default) leaves it as written; `true` replaces each `expression` ' +
      'inline with the text of its value and each `if` block with its blocks when its expression is true (dropped ' +
      'otherwise). Expressions read `space.vars.<name>` (the revision\'s variables), `page.vars.<name>` and ' +
      '`visitor.claims.<name>` (the claims of a site token\'s visitor; none for other callers). `deterministic-only` ' +
      'evaluates only what does not read the visitor, leaving the rest as written.',
  });

/** The query of a page read by id or by path in a revision. */
const pageReadQuery = {
  ...pageQuery,
  'format.markdown.refs': z
    .enum(['relative', 'stable'])
    .optional()
    .openapi({
      description:
        'With `format=markdown`: `relative` (default) writes references to pages and files as paths relative to the ' +
        'page; `stable` writes them as the ids they name (`pag_…`, `fil_…`), which read back as the same references.',
    }),
  evaluated,
  dereferenced,
  cachedMetadata: queryBoolean('Serve Git metadata from a cache. The Git metadata is stored with its revision, so the answer is the same either way.').optional(),
};

const documentQuery = { evaluated, dereferenced };

const RevisionIdParam = z.string().min(1).max(128).openapi({ description: 'The id of a revision of the space (its current one, an earlier one, or one of its change requests).', example: ex.revisionId });
const PagePathParam = z
  .string()
  .min(1)
  .max(2048)
  .openapi({
    description:
      'The path of the page in the revision (`getting-started/quickstart`, as `path` in a page read), URL-encoded: ' +
      'its slashes are sent as `%2F`. Leading and trailing slashes are ignored.',
    example: 'getting-started%2Fquickstart',
  });
const ReusableContentIdParam = z.string().min(1).max(128).openapi({ description: 'The id of the reusable content.', example: reusableContentId });

const RevisionParams = SpaceIdParams.extend({ revisionId: RevisionIdParam });
const RevisionPageParams = RevisionParams.extend({ pageId: PageIdParam });
const RevisionFileParams = RevisionParams.extend({ fileId: FileIdParam });
const RevisionPathParams = RevisionParams.extend({ pagePath: PagePathParam });
const RevisionReusableParams = RevisionParams.extend({ reusableContentId: ReusableContentIdParam });

const base = '/spaces/{spaceId}/revisions/{revisionId}';
const notFound = '404 when the space does not exist or the caller cannot read it, or the revision is not one of the space\'s';

/**
 * What `dereferenced=true` costs a page read: nothing more. The other spaces it includes content of are
 * checked (as a request to each would be) and read in the read's own statement (docs/headless-reads.md).
 */
const otherSpacesCost =
  'The read is one SQL statement, with `dereferenced=true` too: the other spaces its included contents name (10 at ' +
  'most) are checked for the caller, as a request to each would be, and their current content read in that statement.';

const pageFormats =
  'The content comes in the requested `format` (`document` by default, `markdown`); `format.markdown.refs` chooses how ' +
  'Markdown writes references; `dereferenced` expands references (reusable contents) and `evaluated` evaluates expressions ' +
  'and `if` blocks for the reader, the Markdown then written from the result.';

export const revisionOperations = operations({
  getRevisionById: {
    method: 'get',
    path: base,
    tag: 'content',
    summary: 'Get a revision of a space',
    description:
      'Returns a revision of the space by its id: its page tree, files, reusable contents and variables, as ' +
      `getCurrentRevision answers the current one. Revisions never change, so the answer never does. ${notFound}.`,
    params: RevisionParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The revision.', schema: Revision, example: revisionExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listPagesInRevisionById: {
    method: 'get',
    path: `${base}/pages`,
    tag: 'content',
    summary: 'List the pages of a revision',
    description: `Returns the page tree of a revision of the space: the top-level pages, each with its child pages. ${notFound}.`,
    params: RevisionParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The page tree.', schema: RevisionPages, example: revisionPagesExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getPageInRevisionById: {
    method: 'get',
    path: `${base}/page/{pageId}`,
    tag: 'content',
    summary: 'Get a page of a revision',
    description: `Returns a page of a revision of the space, with its child pages. ${pageFormats} ${notFound}, or the page is not in it. ${otherSpacesCost}`,
    params: RevisionPageParams,
    query: z.object(pageReadQuery),
    responses: { 200: { description: 'The page.', schema: RevisionPage, example: revisionPageExample } },
    errors: [400, 404],
    access: access.space('read'),
    // One, `dereferenced=true` too (otherSpacesCost).
    statements: 1,
  },
  getPageDocumentInRevisionById: {
    method: 'get',
    path: `${base}/page/{pageId}/document`,
    tag: 'content',
    summary: 'Get the document of a page of a revision',
    description:
      'Returns the content of a page of a revision as a document (its blocks with their keys). `dereferenced` ' +
      `expands reusable contents; \`evaluated\` evaluates expressions and \`if\` blocks for the reader. ${notFound}, ` +
      `or the page is not in it or is a group (a group has no content). ${otherSpacesCost}`,
    params: RevisionPageParams,
    query: z.object(documentQuery),
    responses: { 200: { description: 'The document of the page.', schema: Document, example: documentExample } },
    errors: [400, 404],
    access: access.space('read'),
    // One, `dereferenced=true` too (otherSpacesCost).
    statements: 1,
  },
  getPageInRevisionByPath: {
    method: 'get',
    path: `${base}/path/{pagePath}`,
    tag: 'content',
    summary: 'Get a page of a revision by its path',
    description: `Returns the page of a revision of the space at a path (its \`path\`), with its child pages. ${pageFormats} ${notFound}, or no page of it has that path. ${otherSpacesCost}`,
    params: RevisionPathParams,
    query: z.object(pageReadQuery),
    responses: { 200: { description: 'The page.', schema: RevisionPage, example: revisionPageExample } },
    errors: [400, 404],
    access: access.space('read'),
    // One, `dereferenced=true` too (otherSpacesCost).
    statements: 1,
  },
  listFilesInRevisionById: {
    method: 'get',
    path: `${base}/files`,
    tag: 'content',
    summary: 'List the files of a revision',
    description: `Lists the files of a revision of the space, in id order. ${notFound}.`,
    params: RevisionParams,
    query: z.object({ ...paginationQuery, ...contentQuery }),
    responses: { 200: { description: 'A page of files.', schema: RevisionFileList, example: revisionFileListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getFileInRevisionById: {
    method: 'get',
    path: `${base}/files/{fileId}`,
    tag: 'content',
    summary: 'Get a file of a revision',
    description: `Returns a file of a revision of the space, with a fresh signed download link. ${notFound}, or the file is not in it.`,
    params: RevisionFileParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The file.', schema: RevisionFile, example: { ...revisionFileExample, id: fileId } } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getReusableContentInRevisionById: {
    method: 'get',
    path: `${base}/reusable-contents/{reusableContentId}`,
    tag: 'content',
    summary: 'Get a reusable content of a revision',
    description: `Returns a reusable content of a revision of the space, with the id of its document. ${notFound}, or the reusable content is not in it.`,
    params: RevisionReusableParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The reusable content.', schema: RevisionReusableContent, example: revisionReusableContentExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getReusableContentDocumentInRevisionById: {
    method: 'get',
    path: `${base}/reusable-contents/{reusableContentId}/document`,
    tag: 'content',
    summary: 'Get the document of a reusable content of a revision',
    description:
      'Returns the content of a reusable content of a revision as a document (empty when it has none). `dereferenced` ' +
      `expands the reusable contents it includes; \`evaluated\` evaluates expressions and \`if\` blocks for the reader. ${notFound}, or the reusable content is not in it. ${otherSpacesCost}`,
    params: RevisionReusableParams,
    query: z.object(documentQuery),
    responses: { 200: { description: 'The document of the reusable content.', schema: Document, example: documentExample } },
    errors: [400, 404],
    access: access.space('read'),
    // One, `dereferenced=true` too (otherSpacesCost).
    statements: 1,
  },
  getPageByPath: {
    method: 'get',
    path: '/spaces/{spaceId}/content/path/{pagePath}',
    tag: 'content',
    summary: 'Get a page of a space by its path',
    description: `Returns the page of the current revision of the space at a path (its \`path\`), with its child pages. ${pageFormats} 404 when the space does not exist or the caller cannot read it, or no page has that path. ${otherSpacesCost}`,
    params: SpaceIdParams.extend({ pagePath: PagePathParam }),
    query: z.object(pageReadQuery),
    responses: { 200: { description: 'The page.', schema: RevisionPage, example: revisionPageExample } },
    errors: [400, 404],
    access: access.space('read'),
    // One, `dereferenced=true` too (otherSpacesCost).
    statements: 1,
  },
  getDocumentById: {
    method: 'get',
    path: '/spaces/{spaceId}/documents/{documentId}',
    tag: 'content',
    summary: 'Get a document of a space',
    description:
      'Returns a document of the space by its id: the `documentId` of a page, or the `document` of a reusable content, in any ' +
      'revision of the space. A document id names that content in that revision, so the same id always answers the same ' +
      'document. `schema` (`current`, `next`) is accepted; both answer the one schema this server stores. 404 when the space ' +
      'does not exist or the caller cannot read it, or the document is not one of the space\'s.',
    params: SpaceIdParams.extend({
      documentId: z.string().min(1).max(512).openapi({ description: 'The id of the document.', example: documentId }),
    }),
    query: z.object({
      schema: z.enum(['current', 'next']).optional().openapi({ description: 'Version of the document schema: both answer the same document.' }),
    }),
    responses: { 200: { description: 'The document.', schema: Document, example: documentExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
});
