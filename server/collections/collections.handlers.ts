import type { collectionOperations } from '../../contract/collections.js';
import type { Handlers } from '../../generated/router.js';
import type { Ctx } from '../context.js';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  listSpacesInCollection,
  moveCollection,
  transferCollection,
  updateCollection,
} from './collections.store.js';

export const collectionHandlers = {
  async getCollectionById({ params }, ctx) {
    return { status: 200, body: await getCollection(ctx, params.collectionId) };
  },
  async deleteCollectionById({ params }, ctx) {
    await deleteCollection(ctx, params.collectionId);
    return { status: 204 };
  },
  async updateCollectionById({ params, body }, ctx) {
    return { status: 200, body: await updateCollection(ctx, params.collectionId, body) };
  },
  async listSpacesInCollectionById({ params, query }, ctx) {
    return { status: 200, body: await listSpacesInCollection(ctx, params.collectionId, query) };
  },
  async moveCollection({ params, body }, ctx) {
    return { status: 200, body: await moveCollection(ctx, params.collectionId, body) };
  },
  async transferCollection({ params, body }, ctx) {
    return { status: 200, body: await transferCollection(ctx, params.collectionId, body.organization) };
  },
  async listCollectionsInOrganizationById({ params, query }, ctx) {
    const { nested = true, ...page } = query;
    return { status: 200, body: await listCollections(ctx, params.organizationId, nested, page) };
  },
  async createCollection({ params, body }, ctx) {
    return { status: 201, body: await createCollection(ctx, params.organizationId, body) };
  },
} satisfies Pick<Handlers<Ctx>, keyof typeof collectionOperations>;
