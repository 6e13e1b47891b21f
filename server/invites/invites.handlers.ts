import type { inviteOperations } from '../../contract/invites.js';
import type { AppHandlers } from '../handler-types.js';
import { inviteUsers } from './email-invites.store.js';
import { createInvite, getInvite, joinWithInvite, listInvites, updateInvite } from './invite-links.store.js';

export const inviteHandlers = {
  async inviteUsersToOrganization({ grant, body }, ctx) {
    return { status: 200, body: await inviteUsers(ctx, grant, body) };
  },
  async listOrganizationInviteLinks({ grant, query }, ctx) {
    return { status: 200, body: await listInvites(ctx, grant, query) };
  },
  async createOrganizationInvite({ grant, body }, ctx) {
    return { status: 201, body: await createInvite(ctx, grant, body) };
  },
  async getOrganizationInviteLink({ params }, ctx) {
    return { status: 200, body: await getInvite(ctx, params.organizationId, params.inviteId) };
  },
  async updateOrganizationInviteById({ grant, params, body }, ctx) {
    return { status: 200, body: await updateInvite(ctx, grant, params.inviteId, body) };
  },
  async joinOrganizationWithInvite({ params }, ctx) {
    await joinWithInvite(ctx, params.organizationId, params.inviteId);
    return { status: 200, body: {} };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof inviteOperations>>;
