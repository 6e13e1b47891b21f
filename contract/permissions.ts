// Who may see what: the roles given on spaces, collections and sites to organization members and teams,
// with the public API's eight operations for each kind of resource. The rule they take part in (a
// caller's role on content) is written in DefaultLevel (common.ts) and in docs/permissions.md.
import { CollectionIdParams } from './collections.js';
import { listExample, listOf, MemberRole, NullableRole, paginationQuery } from './common.js';
import { ex } from './examples.js';
import { access, type Access } from './access.js';
import { operations, type Operation } from './operation.js';
import { siteEx, SiteIdParams } from './site-schemas.js';
import { SpaceIdParams } from './spaces.js';
import { Team, teamExample, teamId } from './teams.js';
import { User, userExample } from './users.js';
import { z } from './zod.js';

const idList = (what: string) =>
  z
    .array(z.string().min(1).max(128))
    .min(1)
    .max(100)
    .openapi({ description: `Ids of the ${what} to give the role to.` });

export const InviteUsersAndTeams = z
  .strictObject({
    role: NullableRole.openapi({ description: 'The role to give them; null takes their grant away (a guest level: nothing).' }),
    users: idList('organization members (guests included)').optional(),
    teams: idList('teams of the organization').optional(),
  })
  .refine((body) => body.users !== undefined || body.teams !== undefined, { message: 'Give `users` or `teams` (or both)', path: ['users'] })
  .openapi('InviteUsersAndTeams');

const UpdatePermission = z
  .strictObject({ role: NullableRole.openapi({ description: 'The new role; null takes the grant away.' }) })
  .openapi('UpdatePermission');

export const UserContentPermission = z
  .object({ permission: MemberRole, user: User })
  .openapi('UserContentPermission', { description: 'The role of a user on a space or collection.' });
export const TeamContentPermission = z
  .object({ permission: MemberRole, team: Team })
  .openapi('TeamContentPermission', { description: 'The role of a team on a space or collection.' });
export const UserSitePermissionOverride = z
  .object({ permission: NullableRole, user: User })
  .openapi('UserSitePermissionOverride', { description: 'The role given to a user on a site.' });
export const TeamSitePermissionOverride = z
  .object({ permission: NullableRole, team: Team })
  .openapi('TeamSitePermissionOverride', { description: 'The role given to a team on a site.' });

const UserSitePermissionOrigin = z
  .union([
    z.object({ type: z.literal('organization'), organization: z.string() }),
    z.object({ type: z.literal('site'), site: z.string(), reason: z.enum(['member', 'team']), team: z.string().optional() }),
  ])
  .openapi('UserSitePermissionOrigin', {
    description: 'Where the role comes from: the organization role, or a grant on the site (to the user, or to one of their teams).',
  });
export const UserSitePermission = z
  .object({
    permission: NullableRole,
    user: User,
    origin: UserSitePermissionOrigin,
    disabled: z.boolean().openapi({ description: 'Whether the membership is disabled.' }),
    lastSeenAt: z.iso.datetime({ offset: true }).optional(),
  })
  .openapi('UserSitePermission', { description: 'The effective role of a member on a site, and where it comes from.' });

const aggregateRole = z.enum(['admin', 'create', 'review', 'edit', 'comment', 'read']).optional().openapi({ description: 'Only the members with this effective role.' });

/** The resources that carry grants, and what their operations are called and where they live. */
const kinds = {
  Space: { noun: 'space', base: '/spaces/{spaceId}', tag: 'spaces' },
  Collection: { noun: 'collection', base: '/collections/{collectionId}', tag: 'collections' },
  Site: { noun: 'site', base: '/orgs/{organizationId}/sites/{siteId}', tag: 'sites' },
} as const;

type Kind = keyof typeof kinds;

function rule(kind: Kind, role: 'admin' | 'read'): Access {
  if (kind === 'Space') return access.space(role);
  if (kind === 'Collection') return access.collection(role);
  return access.organization(role);
}

const roleSentence: Record<Kind, string> = {
  Space: 'on the space',
  Collection: 'on the collection (it reaches the spaces and collections inside it that are in-collection or inherit)',
  Site: 'on the site',
};

const userParam = { userId: z.string().min(1).max(128).openapi({ description: 'The id of the user (a member of the organization).', example: ex.userId }) };
const teamParam = { teamId: z.string().min(1).max(128).openapi({ description: 'The id of the team.', example: teamId }) };

/** The eight permission operations of one kind of resource (named below as the public API names them). */
/** The statement budget (docs/testing-behaviour.md) of each of the eight operations of one kind of resource. */
type PermissionBudgets = Record<'invite' | 'listUsers' | 'updateUser' | 'removeUser' | 'listTeams' | 'updateTeam' | 'removeTeam' | 'aggregate', number>;

function permissionOperations<P extends z.ZodObject, PU extends z.ZodObject, PT extends z.ZodObject>(
  kind: Kind,
  params: P,
  userParams: PU,
  teamParams: PT,
  statements: PermissionBudgets,
) {
  const { noun, base, tag } = kinds[kind];
  const isSite = kind === 'Site';
  const siteNote = isSite ? ' On a site, a grant raises the organization role for the operations on that site.' : '';
  const userItem = isSite ? UserSitePermissionOverride : UserContentPermission;
  const teamItem = isSite ? TeamSitePermissionOverride : TeamContentPermission;
  const aggregateItem = isSite ? UserSitePermission : UserContentPermission;
  const userExampleItem = { permission: 'edit', user: userExample };
  const teamExampleItem = { permission: 'edit', team: teamExample };
  const aggregateExample = isSite
    ? { permission: 'edit', user: userExample, origin: { type: 'site', site: siteEx.siteId, reason: 'member' }, disabled: false }
    : userExampleItem;
  return {
    invite: {
      method: 'post' as const,
      path: `${base}/permissions`,
      tag,
      summary: `Give users or teams a role on a ${noun}`,
      description:
        `Gives each of \`users\` (members of the ${noun}'s organization, guests included) and \`teams\` (of the organization) the role \`role\` ` +
        `${roleSentence[kind]}, replacing any role they were given there before; \`role: null\` takes it away. ` +
        `Unknown users or teams: 404 naming the field, and nothing changes.${siteNote}`,
      params,
      body: InviteUsersAndTeams,
      bodyExample: { role: 'edit', users: [ex.userId2], teams: [teamId] },
      responses: { 204: { description: 'The roles are given.' } },
      errors: [404 as const],
      access: rule(kind, 'admin'),
      statements: statements.invite,
    },
    listUsers: {
      method: 'get' as const,
      path: `${base}/permissions/users`,
      tag,
      summary: `List the users given a role on a ${noun}`,
      description: `The members given a role on the ${noun} itself (not through a team or an enclosing collection), by user id.`,
      params,
      query: z.object({ ...paginationQuery }),
      responses: {
        200: { description: 'A page of users and their roles.', schema: listOf(`${kind}UserPermissionList`, userItem), example: listExample([userExampleItem]) },
      },
      access: rule(kind, 'read'),
      statements: statements.listUsers,
    },
    updateUser: {
      method: 'patch' as const,
      path: `${base}/permissions/users/{userId}`,
      tag,
      summary: `Change the role of a user on a ${noun}`,
      description: `Gives the member \`userId\` the role \`role\` on the ${noun} (null takes it away). A user who is not a member of the organization: 404.`,
      params: userParams,
      body: UpdatePermission,
      bodyExample: { role: 'comment' },
      responses: { 204: { description: 'The role is changed.' } },
      errors: [404 as const],
      access: rule(kind, 'admin'),
      statements: statements.updateUser,
    },
    removeUser: {
      method: 'delete' as const,
      path: `${base}/permissions/users/{userId}`,
      tag,
      summary: `Take away the role of a user on a ${noun}`,
      description: `Takes away the role given to the user on the ${noun}: 205 when there was one, 204 when there was none. Their other ways in (organization role, teams, collections) stay.`,
      params: userParams,
      responses: { 204: { description: 'The user had no role given on it.' }, 205: { description: 'The role is taken away.' } },
      access: rule(kind, 'admin'),
      statements: statements.removeUser,
    },
    listTeams: {
      method: 'get' as const,
      path: `${base}/permissions/teams`,
      tag,
      summary: `List the teams given a role on a ${noun}`,
      description: `The teams given a role on the ${noun} itself, by team id.`,
      params,
      query: z.object({ ...paginationQuery }),
      responses: {
        200: { description: 'A page of teams and their roles.', schema: listOf(`${kind}TeamPermissionList`, teamItem), example: listExample([teamExampleItem]) },
      },
      access: rule(kind, 'read'),
      statements: statements.listTeams,
    },
    updateTeam: {
      method: 'patch' as const,
      path: `${base}/permissions/teams/{teamId}`,
      tag,
      summary: `Change the role of a team on a ${noun}`,
      description: `Gives the team \`teamId\` the role \`role\` on the ${noun} (null takes it away); every member of the team has it. A team of another organization: 404.`,
      params: teamParams,
      body: UpdatePermission,
      bodyExample: { role: 'edit' },
      responses: { 204: { description: 'The role is changed.' } },
      errors: [404 as const],
      access: rule(kind, 'admin'),
      statements: statements.updateTeam,
    },
    removeTeam: {
      method: 'delete' as const,
      path: `${base}/permissions/teams/{teamId}`,
      tag,
      summary: `Take away the role of a team on a ${noun}`,
      description: `Takes away the role given to the team on the ${noun}: 205 when there was one, 204 when there was none.`,
      params: teamParams,
      responses: { 204: { description: 'The team had no role given on it.' }, 205: { description: 'The role is taken away.' } },
      access: rule(kind, 'admin'),
      statements: statements.removeTeam,
    },
    aggregate: {
      method: 'get' as const,
      path: `${base}/permissions/aggregate`,
      tag,
      summary: `List everyone who can access a ${noun}`,
      description:
        `Every enabled member of the organization who can access the ${noun}, with their effective role on it ` +
        `(docs/permissions.md: the ${noun}'s default level, their own grant, their teams' grants${isSite ? '' : ', the grants on the collections around it'}, admins keep admin), by user id; ` +
        '`role` keeps those with exactly that role.',
      params,
      query: z.object({ ...paginationQuery, role: aggregateRole }),
      responses: {
        200: {
          description: 'A page of members and their effective roles.',
          schema: listOf(`${kind}PermissionAggregateList`, aggregateItem),
          example: listExample([aggregateExample]),
        },
      },
      access: rule(kind, 'read'),
      statements: statements.aggregate,
    },
  } satisfies Record<string, Operation>;
}

// The last argument: each operation's statement budget (docs/testing-behaviour.md).
const space = permissionOperations('Space', SpaceIdParams, SpaceIdParams.extend(userParam), SpaceIdParams.extend(teamParam), {
  invite: 5, listUsers: 1, updateUser: 4, removeUser: 2, listTeams: 1, updateTeam: 4, removeTeam: 2, aggregate: 1,
});
const collection = permissionOperations('Collection', CollectionIdParams, CollectionIdParams.extend(userParam), CollectionIdParams.extend(teamParam), {
  invite: 4, listUsers: 1, updateUser: 4, removeUser: 2, listTeams: 1, updateTeam: 4, removeTeam: 2, aggregate: 1,
});
const site = permissionOperations('Site', SiteIdParams, SiteIdParams.extend(userParam), SiteIdParams.extend(teamParam), {
  invite: 5, listUsers: 1, updateUser: 5, removeUser: 3, listTeams: 1, updateTeam: 5, removeTeam: 3, aggregate: 1,
});

export const permissionOperationsTable = operations({
  inviteToSpace: space.invite,
  listUserPermissionsInSpace: space.listUsers,
  updateUserPermissionInSpace: space.updateUser,
  removeUserFromSpace: space.removeUser,
  listTeamPermissionsInSpace: space.listTeams,
  updateTeamPermissionInSpace: space.updateTeam,
  removeTeamFromSpace: space.removeTeam,
  listPermissionsAggregateInSpace: space.aggregate,
  inviteToCollection: collection.invite,
  listUserPermissionsInCollection: collection.listUsers,
  updateUserPermissionInCollection: collection.updateUser,
  removeUserFromCollection: collection.removeUser,
  listTeamPermissionsInCollection: collection.listTeams,
  updateTeamPermissionInCollection: collection.updateTeam,
  removeTeamFromCollection: collection.removeTeam,
  listPermissionsAggregateInCollection: collection.aggregate,
  inviteToSite: site.invite,
  listUserPermissionsInSite: site.listUsers,
  updateUserPermissionInSite: site.updateUser,
  removeUserFromSite: site.removeUser,
  listTeamPermissionsInSite: site.listTeams,
  updateTeamPermissionInSite: site.updateTeam,
  removeTeamFromSite: site.removeTeam,
  listPermissionsAggregateInSite: site.aggregate,
});
