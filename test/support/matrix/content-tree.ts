// Matrix fixtures of the content tree: collections and spaces.
import type { MatrixFixtures } from './types.js';

export const contentTreeFixtures: MatrixFixtures = {
  params: {
    organizationId: async (world) => world.admin.organizationId,
    collectionId: async ({ admin }) => (await admin.api.post(`/orgs/${admin.organizationId}/collections`, { title: 'Matrix' })).body.id,
    spaceId: async ({ admin }) => (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Matrix' })).body.id,
  },
  lists: {
    listSpacesInCollectionById: ({ admin }, path) => admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Matrix', parent: path.collectionId }),
  },
  bodies: {
    transferCollection: (world) => ({ organization: world.admin.organizationId }),
  },
};
