import type { collectionOperations } from '../../contract/collections.js';
import type { AppHandlers } from '../handler-types.js';
import {
  createCollection,
  deleteCollection,
  listCollections,
  listSpacesInCollection,
  moveCollection,
  transferCollection,
  updateCollection,
  viewCollection,
} from './collections.store.js';

export const collectionHandlers = {
  async getCollectionById({ grant }, ctx) {
    return { status: 200, body: viewCollection(ctx, grant) };
  },
  async deleteCollectionById({ grant }, ctx) {
    await deleteCollection(ctx, grant);
    return { status: 204 };
  },
  async updateCollectionById({ grant, body }, ctx) {
    return { status: 200, body: await updateCollection(ctx, grant, body) };
  },
  async listSpacesInCollectionById({ grant, query }, ctx) {
    return { status: 200, body: await listSpacesInCollection(ctx, grant, query) };
  },
  async moveCollection({ grant, body }, ctx) {
    return { status: 200, body: await moveCollection(ctx, grant, body) };
  },
  async transferCollection({ grant, body }, ctx) {
    return { status: 200, body: await transferCollection(ctx, grant, body.organization) };
  },
  async listCollectionsInOrganizationById({ grant, query }, ctx) {
    return { status: 200, body: await listCollections(ctx, grant, query.nested, query) };
  },
  async createCollection({ grant, body }, ctx) {
    const collection = await createCollection(ctx, grant, body);
    return { status: 201, body: collection, headers: { Location: collection.urls.location } };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof collectionOperations>>;
