import type { organizationOperations } from '../../contract/organizations.js';
import type { AppHandlers } from '../handlers.js';
import { listOrganizationsForCaller, updateOrganization, viewOrganization } from './organizations.store.js';

export const organizationHandlers = {
  async listOrganizationsForAuthenticatedUser({ query }, ctx) {
    return { status: 200, body: await listOrganizationsForCaller(ctx, query) };
  },
  async getOrganizationById({ grant }, ctx) {
    return { status: 200, body: viewOrganization(ctx, grant) };
  },
  async updateOrganizationById({ grant, body }, ctx) {
    return { status: 200, body: await updateOrganization(ctx, grant, body) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof organizationOperations>>;
