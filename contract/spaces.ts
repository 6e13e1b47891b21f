import { DateTime, DefaultLevel, listExample, listOf, paginationQuery, positionOf, TranslationLanguage, trimmedText } from './common.js';
import { ex } from './examples.js';
import { GitSyncState } from './git-sync-schemas.js';
import { SpaceMergeRules } from './merge-rules.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const spaceVisibilities = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;

export const spaceExample = {
  object: 'space' as const,
  id: ex.spaceId,
  title: 'Getting started',
  emoji: '🚀',
  visibility: 'in-collection' as const,
  createdAt: ex.createdAt,
  updatedAt: ex.updatedAt,
  editMode: 'live' as const,
  mergeRules: { type: 'inherit' as const },
  organization: ex.orgId,
  parent: ex.collectionId,
  language: 'en' as const,
  revision: ex.revisionId,
  defaultLevel: 'read' as const,
  comments: 3,
  changeRequests: 12,
  changeRequestsOpen: 2,
  changeRequestsDraft: 1,
  urls: {
    location: `${ex.baseUrl}/v1/spaces/${ex.spaceId}`,
    app: `${ex.appUrl}/s/${ex.spaceId}`,
  },
  permissions: {
    view: true,
    access: true,
    admin: true,
    viewInviteLinks: true,
    edit: true,
    triggerGitSync: false,
    comment: true,
    merge: true,
    review: true,
    installIntegration: true,
  },
};

export const Space = z
  .object({
    object: z.literal('space'),
    id: z.string(),
    title: z.string().max(50),
    emoji: z.string().max(50),
    visibility: z.enum(spaceVisibilities).openapi({
      description:
        'public: anyone, indexed; unlisted: anyone, not indexed; share-link: anyone with the secret link; ' +
        'visitor-auth: visitors authenticated by JWT; in-collection: whoever can access the parent collection; private: authorized members.',
    }),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.optional(),
    editMode: z.enum(['live', 'locked']).openapi({ description: 'live: direct edits; locked: all edits locked.' }).optional(),
    mergeRules: SpaceMergeRules,
    organization: z.string(),
    parent: z.string().openapi(conditional('Id of the parent collection; absent at the top level.')).optional(),
    language: TranslationLanguage.openapi(conditional('Language of the content; absent until one is set (`createSpace`, `updateSpaceById`).')).optional(),
    revision: z.string().openapi({ description: 'Id of the active revision.' }),
    defaultLevel: DefaultLevel,
    comments: z.number().int().openapi({ description: 'Number of open comments.' }),
    changeRequests: z.number().int(),
    changeRequestsOpen: z.number().int(),
    changeRequestsDraft: z.number().int(),
    urls: z.object({
      location: z.url(),
      app: z.url(),
      published: z.url().openapi(
        conditional('Where readers open the space: absent unless a published site publishes it (`getSpaceById` only; a share-link site needs `shareKey`).'),
      ).optional(),
    }),
    gitSync: GitSyncState.openapi({ description: 'The Git Sync of the space: present once an import or export was requested on it (getSpaceGitInfo).' }).optional(),
    permissions: z.object({
      view: z.boolean(),
      access: z.boolean(),
      admin: z.boolean(),
      viewInviteLinks: z.boolean(),
      edit: z.boolean(),
      triggerGitSync: z.boolean(),
      comment: z.boolean(),
      merge: z.boolean(),
      review: z.boolean(),
      installIntegration: z.boolean(),
    }).openapi({
      description:
        'What the caller may do on the space. `triggerGitSync` is true only when the space has a Git Sync (`gitSync`) and the caller ' +
        'may edit. While `editMode` is `locked`, `edit`, `merge` and `triggerGitSync` are ' +
        'false whatever the role (every change of the content is refused, 409).',
    }),
  })
  .openapi('Space', { description: 'A container of pages and files.', example: spaceExample });

export const SpaceList = listOf('SpaceList', Space);

export const SpaceIdParams = z.object({
  spaceId: z.string().min(1).max(128).openapi({ description: 'The id of the space.', example: ex.spaceId }),
});

const spaceResponse = (description: string) => ({ description, schema: Space, example: spaceExample });

export const spaceOperations = operations({
  createSpace: {
    method: 'post',
    path: '/orgs/{organizationId}/spaces',
    tag: 'spaces',
    summary: 'Create a space',
    description:
      'Creates an empty space in the organization, at the top level or inside the collection `parent`. ' +
      ' The body may be omitted. A new space is `private`, or `in-collection` inside a collection.',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        title: trimmedText(0, 50).optional(),
        emoji: z.string().max(50).default(''),
        parent: z.string().min(1).optional(),
        language: TranslationLanguage.optional(),
        editMode: z.enum(['live', 'locked']).default('live'),
      })
      .openapi('CreateSpace'),
    bodyOptional: true,
    bodyExample: { title: 'Getting started', emoji: '🚀', parent: ex.collectionId },
    responses: {
      201: {
        ...spaceResponse('The created space.'),
        headers: { Location: { description: 'URL of the created space.', example: spaceExample.urls.location } },
      },
    },
    errors: [403, 404],
    access: access.organization('create'),
    statements: 5,
  },
  listSpacesInOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/spaces',
    tag: 'spaces',
    summary: 'List the spaces of an organization',
    description: 'Lists all spaces of an organization that are not deleted, in creation order.',
    params: OrganizationIdParams,
    query: z.object(paginationQuery),
    responses: { 200: { description: 'A page of spaces.', schema: SpaceList, example: listExample([spaceExample]) } },
    errors: [404],
    access: access.organization('guest'),
    statements: 1,
  },
  getSpaceById: {
    method: 'get',
    path: '/spaces/{spaceId}',
    tag: 'spaces',
    summary: 'Get a space',
    description: 'Returns a space. A deleted space is not found.',
    params: SpaceIdParams,
    query: z.object({
      shareKey: z
        .string()
        .min(1)
        .max(256)
        .optional()
        .openapi({ description: 'Secret key of a share-link site, used to resolve its published URLs.' }),
    }),
    responses: { 200: spaceResponse('The space.') },
    errors: [404],
    access: access.space('read'),
    // One round trip for every caller: the access check reads the space with its counters and where it is
    // published (server/auth/grants.ts spaceAnswerColumns; site-token-caller.ts likewise).
    statements: 1,
  },
  updateSpaceById: {
    method: 'patch',
    path: '/spaces/{spaceId}',
    tag: 'spaces',
    summary: 'Update a space',
    description:
      'Changes the given settings of a space; omitted fields are unchanged. Title, emoji and language need the edit role; ' +
      '`editMode`, `defaultLevel` and `mergeRules` need the admin role.',
    params: SpaceIdParams,
    body: z
      .strictObject({
        title: trimmedText(0, 50).optional(),
        emoji: z.string().max(50).optional(),
        editMode: z.enum(['live', 'locked']).optional(),
        defaultLevel: DefaultLevel.optional(),
        language: TranslationLanguage.optional(),
        mergeRules: SpaceMergeRules.optional(),
      })
      .openapi('UpdateSpace'),
    bodyExample: { title: 'Getting started', emoji: '📘', editMode: 'locked' },
    responses: { 200: spaceResponse('The updated space.') },
    errors: [403, 404],
    access: access.space('edit'),
    statements: 2,
  },
  deleteSpaceById: {
    method: 'delete',
    path: '/spaces/{spaceId}',
    tag: 'spaces',
    summary: 'Delete a space',
    description:
      'Deletes a space: it is no longer found, and it can be restored for 7 days before it is removed for good. ' +
      ' Succeeds with no content also when the space did not exist.',
    params: SpaceIdParams,
    responses: { 204: { description: 'The space is deleted.' } },
    errors: [403],
    access: access.space('admin', { missing: 'no-content' }),
    statements: 2,
  },
  restoreSpace: {
    method: 'post',
    path: '/spaces/{spaceId}/restore',
    tag: 'spaces',
    summary: 'Restore a deleted space',
    description:
      'Brings back a space deleted less than 7 days ago (restoring a space that is not deleted changes nothing). ' +
      'A space deleted longer ago is gone for good: 404.',
    params: SpaceIdParams,
    responses: { 200: spaceResponse('The restored space.') },
    errors: [403, 404],
    access: access.space('admin', { deleted: true }),
    statements: 2,
  },
  duplicateSpace: {
    method: 'post',
    path: '/spaces/{spaceId}/duplicate',
    tag: 'spaces',
    summary: 'Duplicate a space',
    description:
      'Creates a copy of a space next to it in the same parent, with its settings (title, emoji, visibility, edit mode, ' +
      'default level, language, merge rules) and a revision of its own. Needs the `create` role on the space.',
    params: SpaceIdParams,
    responses: {
      201: {
        ...spaceResponse('The new copy.'),
        headers: { Location: { description: 'URL of the new space.', example: spaceExample.urls.location } },
      },
    },
    errors: [403, 404],
    access: access.space('create'),
    statements: 11,
  },
  moveSpace: {
    method: 'post',
    path: '/spaces/{spaceId}/move',
    tag: 'spaces',
    summary: 'Move a space',
    description:
      'Moves a space into a collection (`parent`), to the top level (`parent: null`), and/or before or after a ' +
      'sibling space. A `parent` that contradicts the position is a conflict (409). An `in-collection` space moved to ' +
      'the top level becomes `private`, and the integrations installed on it receive `space_visibility_updated`.',
    params: SpaceIdParams,
    body: z
      .strictObject({
        parent: z.string().min(1).nullable().optional(),
        position: positionOf('space', 'space', ex.spaceId2).optional(),
      })
      .openapi('MoveSpace'),
    bodyExample: { parent: ex.collectionId, position: { after: { type: 'space', space: ex.spaceId2 } } },
    responses: { 200: spaceResponse('The moved space.') },
    errors: [403, 404, 409],
    access: access.space('admin'),
    statements: 8,
  },
  transferSpace: {
    method: 'post',
    path: '/spaces/{spaceId}/transfer',
    tag: 'spaces',
    summary: 'Transfer a space to another organization',
    description:
      'Moves a space to another organization, into one of its collections when `collection` is given (last among its ' +
      'items). The caller must be an admin of the space and of the target organization (403; an organization or ' +
      'collection the caller cannot see is not found, 404).',
    params: SpaceIdParams,
    body: z
      .strictObject({
        organization: z.string().min(1).openapi({ description: 'Id of the target organization.' }),
        collection: z.string().min(1).openapi({ description: 'Id of a collection of the target organization.' }).optional(),
      })
      .openapi('TransferSpace'),
    bodyExample: { organization: ex.orgId2, collection: ex.collectionId2 },
    responses: { 200: spaceResponse('The transferred space.') },
    errors: [403, 404],
    access: access.space('admin'),
    statements: 13,
  },
});
