import type { spaceOperations } from '../../contract/spaces.js';
import type { AppHandlers } from '../handler-types.js';
import { publishedUrlAmong, spacePublishedUrl } from '../sites/space-published-url.js';
import { createSpace, deleteSpace, listSpacesInOrganization, restoreSpace, updateSpace, viewSpace } from './spaces.store.js';

export const spaceHandlers = {
  async createSpace({ grant, body }, ctx) {
    const space = await createSpace(ctx, grant, body);
    return { status: 201, body: space, headers: { Location: space.urls.location } };
  },
  async listSpacesInOrganizationById({ grant, query }, ctx) {
    return { status: 200, body: await listSpacesInOrganization(ctx, grant, query) };
  },
  async getSpaceById({ grant, query }, ctx) {
    const space = await viewSpace(ctx, grant);
    // `shareKey` resolves the URL of a space published by a share-link site (server/sites/space-published-url.ts).
    // The access check read where the space is published with it (one round trip); a grant read another way has not.
    const published = grant.publishedOn
      ? publishedUrlAmong(ctx, grant.publishedOn, query.shareKey)
      : await spacePublishedUrl(ctx, space.id, query.shareKey);
    return { status: 200, body: published ? { ...space, urls: { ...space.urls, published } } : space };
  },
  async updateSpaceById({ grant, body }, ctx) {
    return { status: 200, body: await updateSpace(ctx, grant, body) };
  },
  async deleteSpaceById({ grant }, ctx) {
    await deleteSpace(ctx, grant);
    return { status: 204 };
  },
  async restoreSpace({ grant }, ctx) {
    return { status: 200, body: await restoreSpace(ctx, grant) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof spaceOperations>>;
