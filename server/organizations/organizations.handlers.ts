import type { organizationOperations } from '../../contract/organizations.js';
import type { AppHandlers } from '../handler-types.js';
import { createOrganization, deleteInvite, joinOrganization, organizationsForEmailDomain } from './organization-membership.store.js';
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
  async createOrganization({ body, query }, ctx) {
    const organization = await createOrganization(ctx, body, query);
    return { status: 201, body: organization, headers: { Location: organization.urls.location } };
  },
  async deleteOrganizationInviteById({ grant, params }, ctx) {
    await deleteInvite(ctx, grant, params.inviteId);
    return { status: 204 };
  },
  async joinOrganization({ params }, ctx) {
    await joinOrganization(ctx, params.organizationId);
    return { status: 204 };
  },
  async getOrganizationsForEmailDomain({ params }, ctx) {
    return { status: 200, body: await organizationsForEmailDomain(ctx, params.emailDomain) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof organizationOperations>>;
