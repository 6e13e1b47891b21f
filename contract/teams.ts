// Teams of an organization and their members.
// This file imports nothing from members.ts: members.ts imports `Team` from here (for a member's teams),
// so the team members list, whose items embed a `Member`, is defined in members.ts to avoid an import cycle.
import { DateTime, listExample, listOf, paginationQuery, TeamMemberRole, trimmedText } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { z } from './zod.js';

export const teamId = 'tem_01JD3QF4H7ZNB2S';

export const teamExample = {
  object: 'team' as const,
  id: teamId,
  title: 'Developer Relations',
  members: 6,
  spaces: 4,
  createdAt: ex.createdAt,
  permissions: { admin: true, view: true },
};

export const Team = z
  .object({
    object: z.literal('team'),
    id: z.string(),
    title: z.string().openapi({ description: 'Name of the team.' }),
    members: z.number().int().openapi({ description: 'Number of members of the team.' }),
    spaces: z.number().int().openapi({ description: 'Number of spaces the team has access to.' }),
    createdAt: DateTime,
    permissions: z.object({
      admin: z.boolean().openapi({ description: 'Whether the caller may manage the team (rename, delete, change members).' }),
      view: z.boolean().openapi({ description: 'Whether the caller may see the team.' }),
    }),
  })
  .openapi('Team', { description: 'A group of members of an organization, given access to content together.', example: teamExample });

export const TeamList = listOf('TeamList', Team);

export const TeamIdParams = OrganizationIdParams.extend({
  teamId: z.string().min(1).max(128).openapi({ description: 'The id of the team.', example: teamId }),
});

export const TeamMemberParams = TeamIdParams.extend({
  userId: z.string().min(1).max(128).openapi({ description: 'The id of the user (the member id).', example: ex.userId }),
});

/** Team title: 1 to 100 characters, not blank. */
export const TeamTitle = trimmedText(1, 100);

/** A title filter on team lists. */
export const teamTitleFilter = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .openapi({ description: 'Only teams whose title contains this text (case-insensitive).' });

/** A user designated by id or email, in team membership changes. */
const userIdOrEmail = z.string().min(1).max(254);

const teamResponse = (description: string) => ({ description, schema: Team, example: teamExample });
const teamLocation = `${ex.baseUrl}/v1/orgs/${ex.orgId}/teams/${teamId}`;

export const teamOperations = operations({
  listTeamsInOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/teams',
    tag: 'teams',
    summary: 'List the teams of an organization',
    description:
      'Lists the teams of an organization. With `owner`, only the teams that this member can manage; ' +
      'with `title`, only the teams whose title contains the text, ignoring case.',
    params: OrganizationIdParams,
    query: z.object({
      ...paginationQuery,
      owner: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .openapi({ description: 'A member id: only the teams this member can manage.' }),
      title: teamTitleFilter,
    }),
    responses: { 200: { description: 'A page of teams.', schema: TeamList, example: listExample([teamExample]) } },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  createOrganizationTeam: {
    method: 'put',
    path: '/orgs/{organizationId}/teams',
    tag: 'teams',
    summary: 'Create a team',
    description:
      'Creates a team in the organization, with the given organization members in it (ids that are not members: 400). ' +
      'A creator who is not an organization admin becomes the owner of the team. An unknown organization is not found (404).',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        title: TeamTitle.openapi({ description: 'Name of the team.' }),
        members: z
          .array(z.string().min(1).max(128))
          .max(1000)
          .optional()
          .openapi({ description: 'Ids of organization members to put in the team.' }),
      })
      .openapi('CreateTeam'),
    bodyExample: { title: 'Developer Relations', members: [ex.userId, ex.userId2] },
    responses: {
      201: {
        ...teamResponse('The created team.'),
        headers: { Location: { description: 'URL of the created team.', example: teamLocation } },
      },
    },
    errors: [403, 404],
    access: access.organization('create'),
    statements: 5,
  },
  getTeamInOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/teams/{teamId}',
    tag: 'teams',
    summary: 'Get a team',
    description: 'Returns a team of the organization. An unknown organization or team is not found (404).',
    params: TeamIdParams,
    responses: { 200: teamResponse('The team.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  removeTeamFromOrganizationById: {
    method: 'delete',
    path: '/orgs/{organizationId}/teams/{teamId}',
    tag: 'teams',
    summary: 'Delete a team',
    description:
      'Deletes a team; its members stay members of the organization. ' +
      'Succeeds with no content also when the team did not exist.',
    params: TeamIdParams,
    responses: { 204: { description: 'The team no longer exists.' } },
    errors: [403],
    access: access.organization('admin'),
    statements: 2,
  },
  updateTeamInOrganizationById: {
    method: 'patch',
    path: '/orgs/{organizationId}/teams/{teamId}',
    tag: 'teams',
    summary: 'Rename a team',
    description: 'Changes the title of a team. An unknown organization or team is not found (404).',
    params: TeamIdParams,
    body: z.strictObject({ title: TeamTitle.openapi({ description: 'New name of the team.' }) }).openapi('UpdateTeam'),
    bodyExample: { title: 'Developer Experience' },
    responses: { 200: teamResponse('The updated team.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 3,
  },
  updateMembersInOrganizationTeam: {
    method: 'put',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    tag: 'teams',
    summary: 'Change the members of a team',
    description:
      'Adds the users of `add` to the team and removes those of `remove` (each given by user id or email); ' +
      'a user listed in both `add` and `remove` is removed. `memberships` sets the team role of users, keyed by user id or ' +
      'email, adding them when they are not in the team. An identifier that is not a member of the organization is a 400 ' +
      'naming it, and nothing is changed. ' +
      'Needs the admin role or the owner role in the team. An unknown organization or team is not found (404).',
    params: TeamIdParams,
    body: z
      .strictObject({
        add: z.array(userIdOrEmail).max(1000).openapi({ description: 'Users to add, by user id or email.' }).optional(),
        remove: z.array(userIdOrEmail).max(1000).openapi({ description: 'Users to remove, by user id or email.' }).optional(),
        memberships: z
          .record(z.string().min(1).max(254), z.strictObject({ role: TeamMemberRole }))
          .optional()
          .openapi({ description: 'The team role to give each user, keyed by user id.' }),
      })
      .openapi('UpdateTeamMembers'),
    bodyExample: { add: [ex.userId2, 'grace@example.com'], remove: [ex.userId], memberships: { [ex.userId2]: { role: 'owner' } } },
    responses: { 204: { description: 'The team members are updated.' } },
    errors: [403, 404],
    access: access.organization('read'),
    statements: 10,
  },
  addMemberToOrganizationTeamById: {
    method: 'put',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    tag: 'teams',
    summary: 'Add a member to a team or change its team role',
    description:
      'Adds an organization member to the team with the given role, or changes the role of a user already in the team. ' +
      'Without `role`, a new team member gets the `member` role and an existing one keeps its role. ' +
      'Needs the admin role or the owner role in the team. An unknown organization, team or member is not found (404).',
    params: TeamMemberParams,
    body: z.strictObject({ role: TeamMemberRole.optional() }).openapi('AddTeamMember'),
    bodyOptional: true,
    bodyExample: { role: 'owner' },
    responses: { 204: { description: 'The user is a member of the team with the given role.' } },
    errors: [403, 404],
    access: access.organization('read'),
    statements: 5,
  },
  deleteMemberFromOrganizationTeamById: {
    method: 'delete',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    tag: 'teams',
    summary: 'Remove a member from a team',
    description:
      'Removes a user from the team; the user stays a member of the organization. Needs the admin role or the owner role ' +
      'in the team. Succeeds with no content also when the user was not a member of the team.',
    params: TeamMemberParams,
    responses: { 204: { description: 'The user is not a member of the team.' } },
    errors: [403],
    access: access.organization('read'),
    statements: 4,
  },
});
