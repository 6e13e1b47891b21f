// Members of an organization.
// The team members list (`listTeamMembersInOrganizationById`, tag `teams`) is defined here rather than in
// teams.ts: its items embed a `Member`, and this file already imports `Team` from teams.ts.
import { DateTime, listExample, listOf, MemberRole, NullableRole, paginationQuery, roles, TeamMemberRole } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { Space, spaceExample } from './spaces.js';
import { Team, teamExample, TeamIdParams, teamTitleFilter } from './teams.js';
import { User, userExample } from './users.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const memberExample = {
  object: 'member' as const,
  id: ex.userId,
  role: 'admin' as const,
  user: userExample,
  disabled: false,
  joinedAt: ex.createdAt,
  lastSeenAt: ex.updatedAt,
  sso: false,
  spaces: 12,
  teams: 2,
  sites: 3,
};

export const Member = z
  .object({
    object: z.literal('member'),
    id: z.string().openapi({ description: 'The id of the member: the id of its user.' }),
    role: NullableRole,
    user: User,
    disabled: z.boolean().openapi({ description: 'Whether the membership is disabled.' }),
    joinedAt: DateTime,
    lastSeenAt: DateTime.openapi(conditional('Last activity in the organization; absent when never seen.')).optional(),
    sso: z.boolean().openapi({ description: 'Whether the member signs in through the SSO of the organization.' }),
    spaces: z.number().int().openapi({ description: 'Number of spaces the member has access to.' }),
    teams: z.number().int().openapi({ description: 'Number of teams the member belongs to.' }),
    sites: z.number().int().openapi({ description: 'Number of sites of the organization the member can see: all of them for a member with a role, those granted to them or their teams for a guest.' }),
  })
  .openapi('Member', { description: 'A user who is a member of an organization.', example: memberExample });

export const MemberList = listOf('MemberList', Member);

export const memberSpaceExample = { permission: 'edit' as const, space: spaceExample };

export const MemberSpace = z
  .object({
    permission: MemberRole.openapi({ description: 'The role of the member on the space.' }),
    space: Space,
  })
  .openapi('MemberSpace', { description: 'A space an organization member has access to.', example: memberSpaceExample });

export const memberTeamExample = { team: teamExample, member: { role: 'owner' as const } };

export const MemberTeam = z
  .object({
    team: Team,
    member: z.object({ role: TeamMemberRole }).openapi({ description: 'The membership of the member in the team.' }),
  })
  .openapi('MemberTeam', { description: 'A team an organization member belongs to.', example: memberTeamExample });

export const teamMemberExample = { organization: memberExample, team: { role: 'member' as const }, permissions: { view: true } };

export const TeamMember = z
  .object({
    organization: Member,
    team: z.object({ role: TeamMemberRole }).openapi({ description: 'The membership of the user in the team.' }),
    permissions: z.object({ view: z.boolean().openapi({ description: 'Whether the caller may see this member.' }) }),
  })
  .openapi('TeamMember', { description: 'A member of a team.', example: teamMemberExample });

export const MemberPing = z
  .object({
    serviceVisitorClaims: z
      .string()
      .optional()
      .openapi({
        description:
          'A token of claims to attach to the user when visiting the published content: given as `?jwt_token=` on a ' +
          'published URL of one of the organization\'s sites, it opens a `visitor-auth` site as a visitor token would, ' +
          'with the member\'s claims (`sub`, `organization`, `role`). Valid for an hour; the sites of other ' +
          'organizations refuse it.',
      }),
  })
  .openapi('MemberPing', {
    description: 'The answer to a ping of an organization member.',
    example: { serviceVisitorClaims: 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYWRtaW4ifQ.4pQ7cM2hVdJk1x9sYwRZfN0bT5uE6gL8aH3iK2jP0qo' },
  });

export const MemberParams = OrganizationIdParams.extend({
  userId: z.string().min(1).max(128).openapi({ description: 'The id of the user (the member id).', example: ex.userId }),
});

const order = z
  .enum(['asc', 'desc'])
  .default('desc')
  .openapi({ description: 'Sort direction (default `desc`).' });

const memberResponse = (description: string) => ({ description, schema: Member, example: memberExample });

export const memberOperations = operations({
  listMembersInOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/members',
    tag: 'members',
    summary: 'List the members of an organization',
    description:
      'Lists the members of an organization, sorted by `sort` (default `joinedAt`) in the direction `order` (default `desc`). ' +
      'Sorting by `lastSeenAt` lists only active members, those that have been seen. `role` keeps the members with that role ' +
      '(`guest`: those without a role); `search` keeps those whose display name or email contains the text.',
    params: OrganizationIdParams,
    query: z.object({
      ...paginationQuery,
      order,
      role: z
        .enum([...roles, 'guest'])
        .optional()
        .openapi({ description: 'Only members with this role; `guest` for members without a role.' }),
      search: z
        .string()
        .min(1)
        .max(256)
        .optional()
        .openapi({ description: 'Only members whose display name or email contains this text.' }),
      sort: z
        .enum(['joinedAt', 'lastSeenAt', 'name'])
        .default('joinedAt')
        .openapi({ description: 'Sort key (default `joinedAt`); `lastSeenAt` lists only active members.' }),
    }),
    responses: { 200: { description: 'A page of members.', schema: MemberList, example: listExample([memberExample]) } },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  getMemberInOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/members/{userId}',
    tag: 'members',
    summary: 'Get a member of an organization',
    description: 'Returns a member of the organization. An unknown organization, or a user who is not a member, is not found (404).',
    params: MemberParams,
    responses: { 200: memberResponse('The member.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  removeMemberFromOrganizationById: {
    method: 'delete',
    path: '/orgs/{organizationId}/members/{userId}',
    tag: 'members',
    summary: 'Remove a member from an organization',
    description:
      'Removes a user from the organization, and from its teams. ' +
      'Succeeds with no content also when the user was not a member. The last admin cannot be removed (409).',
    params: MemberParams,
    responses: { 204: { description: 'The user is not a member of the organization.' } },
    errors: [403, 409],
    access: access.organization('admin'),
    statements: 3,
  },
  updateMemberInOrganizationById: {
    method: 'patch',
    path: '/orgs/{organizationId}/members/{userId}',
    tag: 'members',
    summary: "Change a member's role",
    description:
      'Changes the role of a member in the organization; `null` makes the member a guest, and an omitted `role` changes nothing. ' +
      'The last admin of the organization cannot be demoted (409). ' +
      'An unknown organization, or a user who is not a member, is not found (404).',
    params: MemberParams,
    body: z
      .strictObject({ role: NullableRole.openapi({ description: 'The new role; null for a guest.' }).optional() })
      .openapi('UpdateMember'),
    bodyExample: { role: 'review' },
    responses: { 200: memberResponse('The updated member.') },
    errors: [403, 404, 409],
    access: access.organization('admin'),
    statements: 4,
  },
  updateOrganizationMemberLastSeenAt: {
    method: 'post',
    path: '/orgs/{organizationId}/ping',
    tag: 'members',
    summary: 'Record the activity of the caller',
    description:
      "Sets the caller's `lastSeenAt` in the organization to now. The answer may carry `serviceVisitorClaims`, " +
      'a token to attach to the user. An organization the caller is not a member of is not found (404).',
    params: OrganizationIdParams,
    responses: {
      200: { description: 'The activity is recorded.', schema: MemberPing, example: { serviceVisitorClaims: 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYWRtaW4ifQ.4pQ7cM2hVdJk1x9sYwRZfN0bT5uE6gL8aH3iK2jP0qo' } },
    },
    errors: [404],
    access: access.organization('guest'),
    statements: 4,
  },
  setUserAsSSOMemberForOrganization: {
    method: 'post',
    path: '/orgs/{organizationId}/members/{userId}/sso',
    tag: 'members',
    summary: 'Mark a member as an SSO member',
    description:
      'Marks a member of the organization as signing in through SSO (`sso: true`) and returns the member. ' +
      ' An unknown organization, or a user who is not a member, is not found (404).',
    params: MemberParams,
    responses: { 200: memberResponse('The SSO member.') },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 3,
  },
  listSpacesForOrganizationMember: {
    method: 'get',
    path: '/orgs/{organizationId}/members/{userId}/spaces',
    tag: 'members',
    summary: 'List the spaces of a member',
    description:
      'Lists the spaces of the organization a member has access to, each with the role the member has on it, ' +
      'in the direction `order` (default `desc`). An unknown organization or member is not found (404).',
    params: MemberParams,
    query: z.object({ ...paginationQuery, order }),
    responses: {
      200: {
        description: 'A page of spaces with the role of the member.',
        schema: listOf('MemberSpaceList', MemberSpace),
        example: listExample([memberSpaceExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  listTeamsForOrganizationMember: {
    method: 'get',
    path: '/orgs/{organizationId}/members/{userId}/teams',
    tag: 'members',
    summary: 'List the teams of a member',
    description:
      'Lists the teams a member belongs to, each with the role of the member in it; with `title`, only the teams whose ' +
      'title contains the text, ignoring case. An unknown organization or member is not found (404).',
    params: MemberParams,
    query: z.object({ ...paginationQuery, title: teamTitleFilter }),
    responses: {
      200: {
        description: 'A page of teams with the role of the member.',
        schema: listOf('MemberTeamList', MemberTeam),
        example: listExample([memberTeamExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  listTeamMembersInOrganizationById: {
    method: 'get',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    tag: 'teams',
    summary: 'List the members of a team',
    description:
      'Lists the members of a team, each with its organization membership and its role in the team. ' +
      'An unknown organization or team is not found (404).',
    params: TeamIdParams,
    query: z.object(paginationQuery),
    responses: {
      200: {
        description: 'A page of team members.',
        schema: listOf('TeamMemberList', TeamMember),
        example: listExample([teamMemberExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
});
