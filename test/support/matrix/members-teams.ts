// Matrix fixtures of organizations, members, teams, agent instructions and space transfers.
import { randomBytes } from 'node:crypto';
import { documentExample } from '../../../contract/document.js';
import type { MatrixFixtures, MatrixWorld } from './types.js';

const saved = new WeakSet<MatrixWorld>();

export const membersTeamsFixtures: MatrixFixtures = {
  params: {
    // The world's organization, as the content-tree fixture gives it, but with agent instructions saved
    // once (reading them before the first save is a 404). Listed first in index.ts for that reason.
    organizationId: async (world) => {
      if (!saved.has(world)) {
        await world.admin.api.put(`/orgs/${world.admin.organizationId}/agent-instructions`, { instructions: documentExample });
        saved.add(world);
      }
      return world.admin.organizationId;
    },
    userId: async ({ h, admin }) => (await h.newMember(admin.organizationId, 'read')).userId,
    // Every member with a role owns the team, so each may manage its members as the declaration allows.
    teamId: async ({ admin, members }) => {
      const owners = (['read', 'comment', 'edit', 'review', 'create', 'admin'] as const).map((r) => members[r].userId);
      const team = (await admin.api.put(`/orgs/${admin.organizationId}/teams`, { title: 'Matrix' })).body.id as string;
      await admin.api.put(`/orgs/${admin.organizationId}/teams/${team}/members`, {
        memberships: Object.fromEntries(owners.map((id) => [id, { role: 'owner' }])),
      });
      return team;
    },
    // A live invite of the world's organization (role read). Joining with it is the matrix's last case of
    // the organization (invites come last in the contract): the outsider who joins there calls nothing after.
    inviteId: async ({ admin }) => (await admin.api.post(`/orgs/${admin.organizationId}/link-invites`, { role: 'read' })).body.id,
    emailDomain: async () => 'example.com',
  },
  lists: {
    listTeamsForOrganizationMember: ({ admin }, path) => admin.api.put(`/orgs/${path.organizationId}/teams`, { title: 'Matrix', members: [path.userId] }),
  },
  bodies: {
    createOrganization: () => ({ title: 'Matrix organization' }),
    createOrganizationTeam: () => ({ title: 'Matrix team' }),
    createOrganizationInvite: () => ({ role: 'read' }),
    // A new person each time (a member already would be `alreadyMembers`, still a 200); no SMTP_URL here, so no mail.
    inviteUsersToOrganization: () => ({ emails: [`invited-${randomBytes(4).toString('hex')}@example.com`], role: 'read' }),
    updateOrganizationInviteById: () => ({ role: 'comment' }),
    updateTeamInOrganizationById: () => ({ title: 'Matrix team renamed' }),
    updateOrganizationAgentInstructions: () => ({ instructions: documentExample }),
    // A transfer to its own organization: the caller is admin there.
    transferSpace: (world) => ({ organization: world.admin.organizationId }),
  },
  expected: {
    // Members of the world's organization are members already (nothing to do); an outsider's email
    // domain is not one the organization allows.
    joinOrganization: (caller) => (caller === 'outsider' ? 400 : 'success'),
  },
};
