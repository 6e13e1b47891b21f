// Content of a change request (GET /spaces/{spaceId}/change-requests/{changeRequestId}/content…).
import { paginationQuery } from './common.js';
import { changeRequestId, contentQuery, FileIdParam, PageIdParam, pageQuery } from './content.js';
import {
  BacklinkItemList,
  backlinkItemListExample,
  LinkItemList,
  linkItemListExample,
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
import { access } from './access.js';
import { operations } from './operation.js';
import { SpaceIdParams } from './spaces.js';
import { z } from './zod.js';

const ChangeRequestContentParams = SpaceIdParams.extend({
  changeRequestId: z
    .string()
    .min(1)
    .max(128)
    .openapi({ description: 'The id of the change request, or its number within the space.', example: changeRequestId }),
});
const ChangeRequestFileParams = ChangeRequestContentParams.extend({ fileId: FileIdParam });
const ChangeRequestPageParams = ChangeRequestContentParams.extend({ pageId: PageIdParam });

const base = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';
const notFound = '404 when the space or the change request does not exist';

export const changeRequestContentOperations = operations({
  getRevisionOfChangeRequestById: {
    method: 'get',
    path: base,
    tag: 'change-requests',
    summary: 'Get the revision of a change request',
    description:
      'Returns the latest revision of the content of a change request: its page tree, files, reusable contents and ' +
      `variables. ${notFound}.`,
    params: ChangeRequestContentParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The revision of the change request.', schema: Revision, example: revisionExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listPagesInChangeRequest: {
    method: 'get',
    path: `${base}/pages`,
    tag: 'change-requests',
    summary: 'List the pages of a change request',
    description: `Returns the page tree of the change request content: the top-level pages, each with its child pages. ${notFound}.`,
    params: ChangeRequestContentParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The page tree.', schema: RevisionPages, example: revisionPagesExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listFilesInChangeRequestById: {
    method: 'get',
    path: `${base}/files`,
    tag: 'change-requests',
    summary: 'List the files of a change request',
    description: `Lists the files of the change request content. ${notFound}.`,
    params: ChangeRequestContentParams,
    query: z.object({ ...paginationQuery, ...contentQuery }),
    responses: { 200: { description: 'A page of files.', schema: RevisionFileList, example: revisionFileListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getFileInChangeRequestById: {
    method: 'get',
    path: `${base}/files/{fileId}`,
    tag: 'change-requests',
    summary: 'Get a file of a change request',
    description: `Returns a file of the change request content. ${notFound}, or the file is not in it.`,
    params: ChangeRequestFileParams,
    query: z.object(contentQuery),
    responses: { 200: { description: 'The file.', schema: RevisionFile, example: revisionFileExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listChangeRequestFileBacklinks: {
    method: 'get',
    path: `${base}/files/{fileId}/backlinks`,
    tag: 'change-requests',
    summary: 'List the backlinks of a file in a change request',
    description: `Lists the places in content that refer to a file of the change request content. ${notFound}, or the file is not in it.`,
    params: ChangeRequestFileParams,
    query: z.object(paginationQuery),
    responses: { 200: { description: 'A page of backlinks.', schema: BacklinkItemList, example: backlinkItemListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  getPageInChangeRequestById: {
    method: 'get',
    path: `${base}/page/{pageId}`,
    tag: 'change-requests',
    summary: 'Get a page of a change request',
    description: `Returns a page of the change request content, with its content in the requested \`format\`. ${notFound}, or the page is not in it.`,
    params: ChangeRequestPageParams,
    query: z.object(pageQuery),
    responses: { 200: { description: 'The page.', schema: RevisionPage, example: revisionPageExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  listChangeRequestPageLinks: {
    method: 'get',
    path: `${base}/page/{pageId}/links`,
    tag: 'change-requests',
    summary: 'List the links of a page in a change request',
    description:
      'Lists the links found in a page of the change request content, with their status, and counts of all and ' +
      `broken links. ${notFound}, or the page is not in it.`,
    params: ChangeRequestPageParams,
    query: z.object(paginationQuery),
    responses: { 200: { description: 'A page of links, with statistics.', schema: LinkItemList, example: linkItemListExample } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
});
