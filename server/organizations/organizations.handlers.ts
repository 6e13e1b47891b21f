import type { organizationOperations } from '../../contract/organizations.js';
import type { Handlers } from '../../generated/router.js';
import type { Ctx } from '../context.js';
import { getOrganization, listOrganizationsForCaller, updateOrganization } from './organizations.store.js';

export const organizationHandlers = {
  async listOrganizationsForAuthenticatedUser({ query }, ctx) {
    return { status: 200, body: await listOrganizationsForCaller(ctx, query) };
  },
  async getOrganizationById({ params }, ctx) {
    return { status: 200, body: await getOrganization(ctx, params.organizationId) };
  },
  async updateOrganizationById({ params, body }, ctx) {
    return { status: 200, body: await updateOrganization(ctx, params.organizationId, body) };
  },
} satisfies Partial<Pick<Handlers<Ctx>, keyof typeof organizationOperations>>;
