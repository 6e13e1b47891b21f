// Change requests of a space, and the batch update of their content.
import { MarkdownOrDocument } from './comments.js';
import { DateTime, listExample, listOf, paginationQuery, queryArray, queryBoolean } from './common.js';
import { pageId, RevisionFile } from './content-schemas.js';
import { changeRequestId } from './content.js';
import { Document, documentExample } from './document.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { SpaceIdParams } from './spaces.js';
import { User, userExample } from './users.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

/** The revision holding the changes of the example change request. */
const changeRequestRevisionId = 'rev_01JD3QD6S8WP3MZ';
const mergedRevisionId = 'rev_01JD3QD9T2XQ4NA';
const issuesClusterId = 'cls_01JD3QF2A5YB8KD';

export const ChangeRequestStatus = z
  .enum(['draft', 'open', 'archived', 'merged'])
  .openapi('ChangeRequestStatus', {
    description: 'draft: work in progress; open: submitted for review; archived: closed without merging; merged: its changes are in the space.',
    example: 'open',
  });

export const changeRequestExample = {
  object: 'change-request' as const,
  id: changeRequestId,
  number: 12,
  status: 'open' as const,
  subject: 'Document the API token scopes',
  description: documentExample,
  createdBy: userExample,
  createdAt: ex.createdAt,
  updatedAt: ex.updatedAt,
  space: ex.spaceId,
  revision: changeRequestRevisionId,
  revisionInitial: ex.revisionId,
  comments: 2,
  outdated: false,
  conversationsIssuesCluster: issuesClusterId,
  permissions: { merge: true },
  urls: {
    location: `${ex.baseUrl}/v1/spaces/${ex.spaceId}/change-requests/${changeRequestId}`,
    app: `${ex.appUrl}/s/${ex.spaceId}/~/changes/12`,
  },
};

export const ChangeRequest = z
  .object({
    object: z.literal('change-request'),
    id: z.string(),
    number: z.number().int().openapi({ description: 'Incremental number of the change request within its space.' }),
    status: ChangeRequestStatus,
    subject: z.string().openapi({ description: 'One-line summary; empty (`""`) until one is given (at creation or with `updateChangeRequestById`).' }),
    description: Document.openapi(conditional('Longer explanation of the change; absent until one is given.')).optional(),
    createdBy: User,
    createdAt: DateTime,
    updatedAt: DateTime,
    space: z.string().openapi({ description: 'Id of the space.' }),
    revision: z.string().openapi({ description: 'Id of the active revision of the change request.' }),
    revisionInitial: z.string().openapi({ description: 'Id of the space revision the change request was created from.' }),
    revisionMergedAncestor: z
      .string()
      .optional()
      .openapi({ description: 'Id of the latest space revision the change request was brought up to date with.' }),
    revisionMerged: z.string().openapi({ description: 'Id of the space revision the merge produced, once merged.' }).optional(),
    comments: z.number().int().openapi({ description: 'Number of open comments.' }),
    outdated: z.boolean().openapi({ description: 'true when the change request is not up to date with the main content.' }),
    conversationsIssuesCluster: z.string().openapi(conditional('Id of the conversations issues cluster it addresses; absent when it was not made for one.')).optional(),
    permissions: z
      .object({
        merge: z.boolean().openapi({
          description:
            'Whether the caller may merge it now: it is open or draft, the space is not locked, the caller has the review ' +
            'role and the merge rules are met (or the caller may bypass them).',
        }),
      })
      .optional()
      .openapi({ description: 'What the caller may do with it; given when the change request is read or written by itself, not in lists.' }),
    urls: z.object({ location: z.url(), app: z.url() }),
  })
  .openapi('ChangeRequest', { description: 'A set of proposed changes to the content of a space.', example: changeRequestExample });

const ChangeRequestList = listOf('ChangeRequestList', ChangeRequest);

export const ChangeRequestIdParams = SpaceIdParams.extend({
  changeRequestId: z
    .string()
    .min(1)
    .max(128)
    .openapi({ description: 'The id of the change request, or its number within the space.', example: changeRequestId }),
});

const userFilter = (description: string) => z.string().min(1).max(128).openapi({ description }).optional();

/** The filters both change-request lists share, besides `status`. */
const changeRequestFilters = {
  creator: userFilter('Only the change requests created by this user (a user id).'),
  contributor: userFilter('Only the change requests this user contributed to (a user id).'),
  requestedReviewer: userFilter('Only the change requests whose review is requested from this user (a user id).'),
  topic: z.string().min(1).max(128).openapi({ description: 'Only the change requests about this site topic (a topic id).' }).optional(),
  conversationsIssuesCluster: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .openapi({ description: 'Only the change requests addressing this conversations issues cluster (a cluster id).' }),
  orderBy: z
    .enum(['updatedAt', 'createdAt'])
    .default('updatedAt')
    .openapi({ description: 'Sort by last update (default) or by creation time, newest first.' }),
};

const changeRequestResponse = (description: string) => ({ description, schema: ChangeRequest, example: changeRequestExample });

const mergeResultExample = { revision: mergedRevisionId, result: 'merge' as const };
const updateResultExample = { revision: 'rev_01JD3QDB5Y7RS6C', result: 'update' as const };

export const ChangeRequestMergeResult = z
  .object({
    revision: z.string().openapi({ description: 'Id of the space revision the merge produced.' }),
    result: z.literal('merge'),
  })
  .openapi('ChangeRequestMergeResult', {
    description: 'The outcome of merging a change request.',
    example: mergeResultExample,
  });

export const ChangeRequestUpdateResult = z
  .object({
    revision: z.string().openapi({ description: 'Id of the new revision of the change request.' }),
    result: z.literal('update'),
  })
  .openapi('ChangeRequestUpdateResult', {
    description: 'The outcome of bringing a change request up to date with the main content.',
    example: updateResultExample,
  });

// --- Batch update of the content ---------------------------------------------------------------

const pageRef = z.string().min(1).max(128);
const position = z.number().int().min(0).openapi({ description: 'Position among the siblings, 0 first (default: last).' });

/** Page settings an update or insert may set; frontmatter in a Markdown document overrides them. */
const pageMetadata = {
  title: z.string().min(1).max(500).optional(),
  linkTitle: z
    .string()
    .max(100)
    .openapi({
      description:
        "Title of the page's entry in the table of contents (and in mentions) when it is not the page title, as GitBook's " +
        '`linkTitle`; Git Sync writes it as SUMMARY.md\'s quoted link title. `""` removes it.',
    })
    .optional(),
  slug: z.string().max(100).optional(),
  emoji: z.string().max(50).optional(),
  icon: z.string().max(50).openapi({ description: 'Name of an icon.' }).optional(),
  description: z.string().max(1000).optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  condition: z
    .string()
    .max(1024)
    .openapi({
      description:
        'Display condition of the page, in the grammar of site conditions (`SiteSection.condition`); `""` removes it. ' +
        'One outside the grammar, or naming a claim that no adaptive schema of the sites publishing the space defines, ' +
        'is refused (400, naming the change, the character and the reason).',
    })
    .optional(),
};

const fileBase = {
  name: z.string().min(1).max(256).openapi({ description: 'File name, with its extension.' }),
  ref: z.string().min(1).max(128).openapi({ description: 'Name under which the batch refers to this file.' }).optional(),
};
const contentType = z.string().min(1).max(255).openapi({ description: 'MIME type of the file.' });

const reusableContentRef = z
  .string()
  .min(1)
  .max(128)
  .openapi({ description: 'Id of the reusable content, or the `ref` of one inserted earlier in the batch.' });

const InsertedFile = z
  .union([
    z.strictObject({
      ...fileBase,
      contentType: contentType.optional(),
      url: z.url().max(2048).openapi({ description: 'URL the file is fetched from.' }),
    }),
    z.strictObject({
      ...fileBase,
      contentType,
      base64: z
        .string()
        .max(1_048_576)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/)
        .openapi({ description: 'Content of the file, base64-encoded (at most 1 MB encoded).' }),
    }),
  ])
  .openapi('ChangeRequestInsertedFile', {
    description: 'A file to insert, fetched from `url` or given as `base64` (which needs `contentType`).',
  });

export const ChangeRequestContentChange = z
  .discriminatedUnion('operation', [
    z
      .strictObject({
        operation: z.literal('update_page'),
        page: pageRef.openapi({ description: 'Id of the page, or the `ref` of a page inserted earlier in the batch.' }),
        document: MarkdownOrDocument.openapi({ description: 'The new content of the page.' }).optional(),
        into: pageRef.nullable().openapi({ description: 'Id of the new parent page; null moves it to the root.' }).optional(),
        at: position.optional(),
        ...pageMetadata,
      })
      .openapi('ChangeRequestUpdatePage'),
    z
      .strictObject({
        operation: z.literal('insert_page'),
        document: MarkdownOrDocument,
        into: pageRef.openapi({ description: 'Id of the parent page; omitted: at the root.' }).optional(),
        at: position.optional(),
        ref: z.string().min(1).max(128).openapi({ description: 'Name under which later changes of the batch refer to this page.' }).optional(),
        ...pageMetadata,
      })
      .openapi('ChangeRequestInsertPage'),
    z
      .strictObject({ operation: z.literal('delete_page'), page: pageRef })
      .openapi('ChangeRequestDeletePage', { description: 'Deletes a page with its subpages.' }),
    z
      .strictObject({
        operation: z.literal('revert_page'),
        page: pageRef,
        revision: z
          .string()
          .min(1)
          .max(128)
          .optional()
          .openapi({ description: 'Revision to revert to (default: the base revision of the change request).' }),
        block: z
          .array(z.string().min(1).max(100))
          .max(1000)
          .optional()
          .openapi({ description: 'Keys of the blocks to revert (default: the whole page).' }),
      })
      .openapi('ChangeRequestRevertPage'),
    z
      .strictObject({ operation: z.literal('insert_files'), files: z.array(InsertedFile).min(1).max(20) })
      .openapi('ChangeRequestInsertFiles'),
    z
      .strictObject({
        operation: z.literal('insert_reusable_content'),
        title: z.string().min(1).max(500).openapi({ description: 'Title of the reusable content.' }),
        document: MarkdownOrDocument.openapi({ description: 'Its content (default: empty).' }).optional(),
        ref: z
          .string()
          .min(1)
          .max(128)
          .openapi({ description: 'Name under which later changes of the batch, and documents of the batch (`{kind: reusable-content, reusableContent: <ref>}`), refer to it.' })
          .optional(),
      })
      .openapi('ChangeRequestInsertReusableContent', { description: 'Inserts a reusable content: blocks pages include with a `reusable-content` block.' }),
    z
      .strictObject({
        operation: z.literal('update_reusable_content'),
        reusableContent: reusableContentRef,
        title: z.string().min(1).max(500).optional(),
        document: MarkdownOrDocument.openapi({ description: 'Its new content.' }).optional(),
      })
      .openapi('ChangeRequestUpdateReusableContent', { description: 'Changes the title or the content of a reusable content.' }),
    z
      .strictObject({ operation: z.literal('delete_reusable_content'), reusableContent: reusableContentRef })
      .openapi('ChangeRequestDeleteReusableContent', {
        description: 'Deletes a reusable content; the blocks that include it stay, and include nothing (a read expanding them keeps them as they are).',
      }),
  ])
  .openapi('ChangeRequestContentChange', { description: 'One change of a batch, chosen by `operation`.' });

const ChangedPage = z.object({
  object: z.literal('page'),
  id: z.string(),
  urls: z.object({ location: z.url() }),
});

export const ChangeRequestContentChangeResult = z
  .discriminatedUnion('object', [
    z.object({ object: z.literal('created_page'), ref: z.string().optional(), page: ChangedPage }),
    z.object({ object: z.literal('updated_page'), page: ChangedPage }),
    z.object({ object: z.literal('deleted_page'), page: z.string().openapi({ description: 'Id of the deleted page.' }) }),
  ])
  .openapi('ChangeRequestContentChangeResult', { description: 'What one change of the batch did to a page.' });

export const ChangeRequestReusableContentResult = z
  .discriminatedUnion('object', [
    z.object({
      object: z.literal('created_reusable_content'),
      ref: z.string().optional(),
      reusableContent: z.string().openapi({ description: 'Id of the new reusable content.' }),
    }),
    z.object({ object: z.literal('updated_reusable_content'), reusableContent: z.string() }),
    z.object({ object: z.literal('deleted_reusable_content'), reusableContent: z.string() }),
  ])
  .openapi('ChangeRequestReusableContentResult', { description: 'What one change of the batch did to a reusable content.' });

export const ChangeRequestContentUpdate = z
  .object({
    changeRequest: ChangeRequest,
    changes: z.array(ChangeRequestContentChangeResult),
    insertedFiles: z.array(RevisionFile).optional(),
    reusableContents: z
      .array(ChangeRequestReusableContentResult)
      .optional()
      .openapi({ description: 'What the reusable-content changes of the batch did, in their order (present when the batch has any).' }),
  })
  .openapi('ChangeRequestContentUpdate', {
    description: 'The change request after a batch update of its content, with what each change did (`compat=false`).',
  });

export const changeRequestOperations = operations({
  listChangeRequestsForSpace: {
    method: 'get',
    path: '/spaces/{spaceId}/change-requests',
    tag: 'change-requests',
    summary: 'List the change requests of a space',
    description:
      'Lists the change requests of a space with the given `status` (default open), most recently updated first. ' +
      'Further filters: creator, contributor, requested reviewer, topic and conversations issues cluster.',
    params: SpaceIdParams,
    query: z.object({
      ...paginationQuery,
      status: ChangeRequestStatus.default('open').openapi({ description: 'Only the change requests in this status (default open).' }),
      ...changeRequestFilters,
    }),
    responses: { 200: { description: 'A page of change requests.', schema: ChangeRequestList, example: listExample([changeRequestExample]) } },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  createChangeRequest: {
    method: 'post',
    path: '/spaces/{spaceId}/change-requests',
    tag: 'change-requests',
    summary: 'Create a change request',
    description:
      'Opens a change request on the space, starting from its current revision, with the caller as creator, its `subject`, ' +
      '`description` and the `conversationsIssuesCluster` it addresses (a cluster of the organization; an unknown one is ' +
      'not found). Other properties are accepted and ignored. The body may be omitted. A locked space (`editMode: locked`) ' +
      'still takes change requests, which write no content; their content edits, updates and merges are conflicts (409) ' +
      'until it is unlocked.',
    params: SpaceIdParams,
    body: z
      .looseObject({
        subject: z.string().max(1000).openapi({ description: 'Title of the change request.' }).optional(),
        description: Document.openapi({ description: 'What the change request is about.' }).optional(),
        conversationsIssuesCluster: z
          .string()
          .min(1)
          .max(128)
          .optional()
          .openapi({ description: 'Id of the conversations issues cluster of the organization it addresses.' }),
      })
      .openapi('CreateChangeRequest'),
    bodyOptional: true,
    bodyExample: { subject: 'Document the API token scopes', description: documentExample },
    responses: {
      201: {
        ...changeRequestResponse('The created change request.'),
        headers: { Location: { description: 'URL of the created change request.', example: changeRequestExample.urls.location } },
      },
    },
    errors: [403, 404],
    access: access.space('edit'),
    statements: 4,
  },
  getChangeRequestById: {
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
    tag: 'change-requests',
    summary: 'Get a change request',
    description: 'Returns a change request of the space, by id or by number. An unknown change request is not found.',
    params: ChangeRequestIdParams,
    responses: { 200: changeRequestResponse('The change request.') },
    errors: [404],
    access: access.space('read'),
    statements: 1,
  },
  updateChangeRequestById: {
    method: 'patch',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
    tag: 'change-requests',
    summary: 'Update a change request',
    description:
      'Changes the subject, the description or the status (draft, open or archived) of a change request; omitted fields ' +
      'are unchanged. A merged change request can no longer change its status (409).',
    params: ChangeRequestIdParams,
    body: z
      .strictObject({
        subject: z.string().optional(),
        description: Document.optional(),
        status: z.enum(['draft', 'open', 'archived']).openapi({ description: 'Use the merge operation to merge.' }).optional(),
      })
      .openapi('UpdateChangeRequest'),
    bodyExample: { subject: 'Document the API token scopes', status: 'open' },
    responses: { 200: changeRequestResponse('The updated change request.') },
    errors: [403, 404, 409],
    access: access.space('edit'),
    statements: 5,
  },
  mergeChangeRequest: {
    method: 'post',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/merge',
    tag: 'change-requests',
    summary: 'Merge a change request',
    description:
      'Merges the changes of a change request into the content of the space: the result is a new space revision, which ' +
      'becomes `revisionMerged` of the change request, now merged. Needs the review role and the merge rules of the space ' +
      '(its own, or the organization\'s with `inherit`) to be met: otherwise 403, whose message names every unmet rule; ' +
      'users named by an `allow_bypass` rule may merge anyway. Only current reviews count: the latest of each reviewer, ' +
      'made on the current revision of the change request, and not by its author. `require_agent_review` and `custom` ' +
      'rules are never met (this service has no review agent and does not evaluate expressions). A change request ' +
      'already merged or archived, or a locked space (`editMode: locked`), is a conflict (409).',
    params: ChangeRequestIdParams,
    responses: { 200: { description: 'The merge is done.', schema: ChangeRequestMergeResult, example: mergeResultExample } },
    errors: [403, 404, 409],
    access: access.space('review'),
    // 8 when the change request brings files: the revisions they come from are read and their references
    // written for the space (content_files; the bytes are blobs, stored once, server/blobs/).
    statements: 8,
  },
  updateChangeRequest: {
    method: 'post',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/update',
    tag: 'change-requests',
    summary: 'Bring a change request up to date',
    description:
      'Applies the changes of the main content made since the change request was created (or last updated) to it, so that ' +
      'it is no longer `outdated`. Needs the edit role; a merged change request, or a locked space (`editMode: locked`), ' +
      'is a conflict (409).',
    params: ChangeRequestIdParams,
    responses: {
      200: {
        description: 'The change request is up to date.',
        schema: ChangeRequestUpdateResult,
        example: updateResultExample,
      },
    },
    errors: [403, 404, 409],
    access: access.space('edit'),
    statements: 8,
  },
  getChangeRequestPDF: {
    method: 'get',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
    tag: 'change-requests',
    summary: 'Get a PDF of a change request',
    description:
      'Returns a temporary URL of a PDF of the content of the change request: all of it, starting at the page `page`, ' +
      'or only that page with `only=true` (which needs `page`). The URL opens without a token (it carries its own), shows ' +
      'the content as it was when the URL was made, and expires after 1 hour (then 410). An unknown change request or page is not found.',
    params: ChangeRequestIdParams,
    query: z.object({
      only: queryBoolean('Produce the PDF of the page `page` only.').optional(),
      page: z.string().min(1).max(128).openapi({ description: 'Id of a page of the change request (not a list cursor).' }).optional(),
    })
      .refine((q) => !q.only || q.page !== undefined, { message: '`only=true` needs `page`', path: ['page'] }),
    responses: {
      200: {
        description: 'Where to download the PDF.',
        schema: z
          .object({ url: z.url().openapi({ description: 'URL of the PDF.' }) })
          .openapi('ChangeRequestPDF', { description: 'Where to download a PDF.' }),
        example: { url: `https://files.docs.example.com/pdf/${ex.spaceId}/${changeRequestId}.pdf?token=f3Jk9QxB` },
      },
    },
    errors: [404],
    access: access.space('read'),
    // The change request (and its revision when the link starts at a page) read, and the link's row
    // written, in the grant's statement: written only for a caller with the read role.
    statements: 1,
  },
  listChangeRequestsForOrganization: {
    method: 'get',
    path: '/orgs/{organizationId}/change-requests',
    tag: 'change-requests',
    summary: 'List the change requests of an organization',
    description:
      'Lists the change requests of all the spaces of an organization the caller can access, with any of the given ' +
      'statuses (default open), most recently updated first. Takes the filters of the space list, plus `site` and `space`.',
    params: OrganizationIdParams,
    query: z.object({
      ...paginationQuery,
      status: queryArray(ChangeRequestStatus, 'Only the change requests in any of these statuses (repeat the parameter; default open).', 4)
        .default(['open']),
      ...changeRequestFilters,
      site: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .openapi({ description: 'Only the change requests of the spaces this site publishes (a site id).' }),
      space: z.string().min(1).max(128).openapi({ description: 'Only the change requests of this space (a space id).' }).optional(),
    }),
    responses: { 200: { description: 'A page of change requests.', schema: ChangeRequestList, example: listExample([changeRequestExample]) } },
    errors: [404],
    access: access.organization('guest'),
    statements: 1,
  },
  updateChangeRequestContent: {
    method: 'post',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
    tag: 'change-requests',
    summary: 'Update the content of a change request',
    description:
      'Applies a batch of 1 to 50 changes (insert, update, delete or revert pages, insert files, insert, update or delete ' +
      'reusable contents) to the content of a change ' +
      'request, atomically: one new revision, or the whole batch is rejected. Answers the change request, or with ' +
      '`compat=false` what each change did and the inserted files. Needs the edit role; a merged or archived change request, ' +
      'or a locked space (`editMode: locked`), is a conflict (409); an unknown change request or page is not found. ' +
      'A file whose `url` cannot be fetched is refused (400, naming it).',
    params: ChangeRequestIdParams,
    query: z.object({
      compat: queryBoolean('true (default): answer the change request; false: answer a ChangeRequestContentUpdate.')
        .default(true)
        .openapi({ default: true }),
    }),
    body: z
      .strictObject({ changes: z.array(ChangeRequestContentChange).min(1).max(50) })
      .openapi('UpdateChangeRequestContent'),
    bodyExample: {
      changes: [
        {
          operation: 'insert_page',
          document: { markdown: '# API token scopes\n\nEach token carries the scopes it was created with.' },
          into: pageId,
          ref: 'scopes',
        },
        { operation: 'update_page', page: pageId, title: 'Authentication' },
        { operation: 'insert_files', files: [{ name: 'scopes.png', url: 'https://assets.example.com/scopes.png' }] },
      ],
    },
    // Up to 20 files of 1 MB each, base64-encoded, besides 50 page changes.
    maxBodyBytes: 32 * 1024 * 1024,
    responses: {
      200: {
        description: 'The updated change request (`compat=true`), or what the batch did (`compat=false`).',
        schema: z.union([ChangeRequest, ChangeRequestContentUpdate]),
        example: changeRequestExample,
      },
    },
    errors: [403, 404, 409],
    access: access.space('edit'),
    statements: 5,
  },
});
