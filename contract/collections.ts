import { DateTime, DefaultLevel, listExample, listOf, paginationQuery, positionOf, queryBoolean, trimmedText } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { SpaceList, spaceExample } from './spaces.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const collectionExample = {
  object: 'collection' as const,
  id: ex.collectionId,
  title: 'Product guides',
  description: 'Everything customers need to get started',
  organization: ex.orgId,
  defaultLevel: 'read' as const,
  createdAt: ex.createdAt,
  updatedAt: ex.updatedAt,
  urls: {
    location: `${ex.baseUrl}/v1/collections/${ex.collectionId}`,
    app: `${ex.appUrl}/o/${ex.orgId}/c/${ex.collectionId}`,
  },
  permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
};

export const Collection = z
  .object({
    object: z.literal('collection'),
    id: z.string(),
    title: z.string().max(50),
    description: z.string().max(100).openapi(conditional('Short description; absent until one is set.')).optional(),
    organization: z.string().openapi({ description: 'Id of the owning organization.' }),
    parent: z.string().openapi(conditional('Id of the parent collection, absent at the top level.')).optional(),
    defaultLevel: DefaultLevel,
    createdAt: DateTime,
    updatedAt: DateTime,
    urls: z.object({ location: z.url(), app: z.url() }),
    permissions: z.object({ view: z.boolean(), admin: z.boolean(), viewInviteLinks: z.boolean(), create: z.boolean() }),
  })
  .openapi('Collection', { description: 'A group of spaces and collections.', example: collectionExample });

export const CollectionIdParams = z.object({
  collectionId: z.string().min(1).max(128).openapi({ description: 'The id of the collection.', example: ex.collectionId }),
});

const collectionResponse = (description: string) => ({ description, schema: Collection, example: collectionExample });

export const collectionOperations = operations({
  getCollectionById: {
    method: 'get',
    path: '/collections/{collectionId}',
    tag: 'collections',
    summary: 'Get a collection',
    description: 'Returns a collection of an organization the caller is a member of.',
    params: CollectionIdParams,
    responses: { 200: collectionResponse('The collection.') },
    errors: [404],
    access: access.collection('read'),
    statements: 1,
  },
  deleteCollectionById: {
    method: 'delete',
    path: '/collections/{collectionId}',
    tag: 'collections',
    summary: 'Delete a collection',
    description:
      'Deletes a collection with its nested collections; the spaces inside are deleted like `deleteSpaceById` ' +
      '(restorable for 7 days, at the top level). Succeeds with no content also when the collection did not exist.',
    params: CollectionIdParams,
    responses: { 204: { description: 'The collection is gone.' } },
    errors: [403],
    access: access.collection('admin', { missing: 'no-content' }),
    statements: 6,
  },
  updateCollectionById: {
    method: 'patch',
    path: '/collections/{collectionId}',
    tag: 'collections',
    summary: 'Update a collection',
    description: 'Changes the title, description or default level of a collection.',
    params: CollectionIdParams,
    body: z
      .strictObject({
        title: trimmedText(1, 50).optional(),
        description: z.string().max(100).optional(),
        defaultLevel: DefaultLevel.optional(),
      })
      .openapi('UpdateCollection'),
    bodyExample: { title: 'Product guides', description: 'Start here', defaultLevel: 'comment' },
    responses: { 200: collectionResponse('The updated collection.') },
    errors: [403, 404],
    access: access.collection('admin'),
    statements: 2,
  },
  listSpacesInCollectionById: {
    method: 'get',
    path: '/collections/{collectionId}/spaces',
    tag: 'collections',
    summary: 'List the spaces of a collection',
    description: 'Lists the spaces directly inside a collection, in their order.',
    params: CollectionIdParams,
    query: z.object(paginationQuery),
    responses: { 200: { description: 'A page of spaces.', schema: SpaceList, example: listExample([spaceExample]) } },
    errors: [404],
    access: access.collection('read'),
    statements: 1,
  },
  moveCollection: {
    method: 'post',
    path: '/collections/{collectionId}/move',
    tag: 'collections',
    summary: 'Move a collection',
    description:
      'Moves a collection into another collection (`parent`), to the top level (`parent: null`), and/or ' +
      'before or after a sibling space. A collection cannot be moved into itself or its own descendants (409); an unknown parent or anchor space is not found (404).',
    params: CollectionIdParams,
    body: z
      .strictObject({
        parent: z.string().min(1).nullable().optional(),
        position: positionOf('space', 'space', ex.spaceId).optional(),
      })
      .openapi('MoveCollection'),
    bodyExample: { parent: ex.collectionId2, position: { before: { type: 'space', space: ex.spaceId } } },
    responses: { 200: collectionResponse('The moved collection.') },
    errors: [403, 404, 409],
    access: access.collection('admin'),
    statements: 8,
  },
  transferCollection: {
    method: 'post',
    path: '/collections/{collectionId}/transfer',
    tag: 'collections',
    summary: 'Transfer a collection to another organization',
    description:
      'Moves a collection, its nested collections and their spaces to the top level of another organization. ' +
      'The caller must be an admin of both organizations.',
    params: CollectionIdParams,
    body: z.strictObject({ organization: z.string().min(1) }).openapi('TransferCollection'),
    bodyExample: { organization: ex.orgId2 },
    responses: { 200: collectionResponse('The transferred collection.') },
    errors: [403, 404],
    access: access.collection('admin'),
    statements: 17,
  },
  listCollectionsInOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/collections',
    tag: 'collections',
    summary: 'List the collections of an organization',
    description: 'Lists the collections of an organization; with `nested=false`, only the top-level ones.',
    params: OrganizationIdParams,
    query: z.object({
      ...paginationQuery,
      nested: queryBoolean('List nested collections too.').default(true),
    }),
    responses: {
      200: {
        description: 'A page of collections.',
        schema: listOf('CollectionList', Collection),
        example: listExample([collectionExample]),
      },
    },
    errors: [404],
    access: access.organization('guest'),
    statements: 1,
  },
  createCollection: {
    method: 'post',
    path: '/orgs/{organizationId}/collections',
    tag: 'collections',
    summary: 'Create a collection',
    description: 'Creates a collection at the top level or inside `parent`. The body may be omitted.',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        title: trimmedText(0, 50).optional(),
        parent: z.string().min(1).optional(),
      })
      .openapi('CreateCollection'),
    bodyOptional: true,
    bodyExample: { title: 'Product guides', parent: ex.collectionId2 },
    responses: { 201: collectionResponse('The created collection.') },
    errors: [403, 404],
    access: access.organization('create'),
    statements: 5,
  },
});

