import type { teamOperations } from '../../contract/teams.js';
import type { AppHandlers } from '../handler-types.js';
import { putTeamMember, removeTeamMember, updateTeamMembers } from './team-members.store.js';
import { createTeam, deleteTeam, getTeam, listTeams, renameTeam } from './teams.store.js';

export const teamHandlers = {
  async listTeamsInOrganizationById({ grant, query }, ctx) {
    return { status: 200, body: await listTeams(ctx, grant, query) };
  },
  async createOrganizationTeam({ grant, body }, ctx) {
    const team = await createTeam(ctx, grant, body);
    return { status: 201, body: team, headers: { Location: ctx.urls.api(`/orgs/${grant.organization.id}/teams/${team.id}`) } };
  },
  async getTeamInOrganizationById({ grant, params }, ctx) {
    return { status: 200, body: await getTeam(ctx, grant, params.teamId) };
  },
  async removeTeamFromOrganizationById({ grant, params }, ctx) {
    await deleteTeam(ctx, grant, params.teamId);
    return { status: 204 };
  },
  async updateTeamInOrganizationById({ grant, params, body }, ctx) {
    return { status: 200, body: await renameTeam(ctx, grant, params.teamId, body.title) };
  },
  async updateMembersInOrganizationTeam({ grant, params, body }, ctx) {
    await updateTeamMembers(ctx, grant, params.teamId, body);
    return { status: 204 };
  },
  async addMemberToOrganizationTeamById({ grant, params, body }, ctx) {
    await putTeamMember(ctx, grant, params.teamId, params.userId, body?.role);
    return { status: 204 };
  },
  async deleteMemberFromOrganizationTeamById({ grant, params }, ctx) {
    await removeTeamMember(ctx, grant, params.teamId, params.userId);
    return { status: 204 };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof teamOperations>>;
