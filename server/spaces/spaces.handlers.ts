import type { spaceOperations } from '../../contract/spaces.js';
import type { Handlers } from '../../generated/router.js';
import type { Ctx } from '../context.js';
import { createSpace, deleteSpace, getSpace, listSpacesInOrganization, restoreSpace, updateSpace } from './spaces.store.js';

export const spaceHandlers = {
  async createSpace({ params, body }, ctx) {
    const space = await createSpace(ctx, params.organizationId, body);
    return { status: 201, body: space, headers: { Location: space.urls.location } };
  },
  async listSpacesInOrganizationById({ params, query }, ctx) {
    return { status: 200, body: await listSpacesInOrganization(ctx, params.organizationId, query) };
  },
  async getSpaceById({ params }, ctx) {
    return { status: 200, body: await getSpace(ctx, params.spaceId) };
  },
  async updateSpaceById({ params, body }, ctx) {
    return { status: 200, body: await updateSpace(ctx, params.spaceId, body) };
  },
  async deleteSpaceById({ params }, ctx) {
    await deleteSpace(ctx, params.spaceId);
    return { status: 204 };
  },
  async restoreSpace({ params }, ctx) {
    return { status: 200, body: await restoreSpace(ctx, params.spaceId) };
  },
} satisfies Partial<Pick<Handlers<Ctx>, keyof typeof spaceOperations>>;
