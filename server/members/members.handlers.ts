import type { memberOperations } from '../../contract/members.js';
import type { AppHandlers } from '../handler-types.js';
import { listTeamMembers } from '../teams/team-members.store.js';
import { listMemberSpaces, listMemberTeams } from './member-lists.js';
import { getMember, listMembers, removeMember, setSsoMember, updateMemberRole } from './members.store.js';
import { pingMember } from './ping.js';

export const memberHandlers = {
  async listMembersInOrganizationById({ grant, query }, ctx) {
    return { status: 200, body: await listMembers(ctx, grant, query) };
  },
  async getMemberInOrganizationById({ grant, params }, ctx) {
    return { status: 200, body: await getMember(ctx, grant.organization.id, params.userId, grant.attached) };
  },
  async removeMemberFromOrganizationById({ grant, params }, ctx) {
    await removeMember(ctx, grant, params.userId);
    return { status: 204 };
  },
  async updateMemberInOrganizationById({ grant, params, body }, ctx) {
    return { status: 200, body: await updateMemberRole(ctx, grant, params.userId, body.role) };
  },
  async updateOrganizationMemberLastSeenAt({ grant }, ctx) {
    return { status: 200, body: await pingMember(ctx, grant) };
  },
  async setUserAsSSOMemberForOrganization({ grant, params }, ctx) {
    return { status: 200, body: await setSsoMember(ctx, grant, params.userId) };
  },
  async listSpacesForOrganizationMember({ grant, params, query }, ctx) {
    return { status: 200, body: await listMemberSpaces(ctx, grant, params.userId, query) };
  },
  async listTeamsForOrganizationMember({ grant, params, query }, ctx) {
    return { status: 200, body: await listMemberTeams(ctx, grant, params.userId, query) };
  },
  async listTeamMembersInOrganizationById({ grant, params, query }, ctx) {
    return { status: 200, body: await listTeamMembers(ctx, grant, params.teamId, query) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof memberOperations>>;
