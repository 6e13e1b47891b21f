// Invite links of an organization: to the organization (with a role), to a space or to a collection (with
// a level on it); they can expire and be revoked (deleteOrganizationInviteById, in organizations.ts), and
// joinOrganizationWithInvite honours them. Decisions in docs/permissions.md ("Invite links").
import { Collection } from './collections.js';
import { DateTime, listExample, listOf, NullableRole, paginationQuery } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { Space } from './spaces.js';
import { z } from './zod.js';

export const inviteId = 'inv_Yq3l0Zk8cT2wXbV9nR4sAg';

const InviteIdParams = OrganizationIdParams.extend({
  inviteId: z.string().min(1).max(128).openapi({ description: 'The id of the invite link (what the link carries).', example: inviteId }),
});

const common = {
  object: z.literal('invite'),
  id: z.string().openapi({ description: 'The id of the invite: whoever has it may join with it, until it expires or is revoked.' }),
  redundant: z.boolean().openapi({ description: 'Whether the caller already has all that the invite gives.' }),
  expiresAt: DateTime.optional().openapi({ description: 'When the invite stops letting anyone join; absent: it does not expire.' }),
  createdAt: DateTime,
};

export const InviteLinkToOrganization = z
  .object({ ...common, role: NullableRole.openapi({ description: 'The role in the organization the invite gives (null: guest).' }) })
  .openapi('InviteLinkToOrganization');
export const InviteLinkToSpace = z
  .object({ ...common, level: NullableRole.openapi({ description: 'The role on the space the invite gives (null: none).' }), space: Space })
  .openapi('InviteLinkToSpace');
export const InviteLinkToCollection = z
  .object({ ...common, level: NullableRole.openapi({ description: 'The role on the collection the invite gives (null: none).' }), collection: Collection })
  .openapi('InviteLinkToCollection');

export const OrganizationInviteLink = z.union([InviteLinkToOrganization, InviteLinkToSpace, InviteLinkToCollection]).openapi('OrganizationInviteLink', {
  description: 'An invite link: to the organization with a role, or to a space or collection with a level on it (joining as a guest when not a member).',
});

export const organizationInviteExample = {
  object: 'invite' as const,
  id: inviteId,
  role: 'edit' as const,
  redundant: false,
  expiresAt: '2026-06-01T00:00:00.000Z',
  createdAt: ex.createdAt,
};

const expiresAt = DateTime.optional().openapi({ description: 'When the invite stops working (in the future); absent: never.' });

const CreateOrganizationInvite = z
  .union([
    z.strictObject({ role: NullableRole.openapi({ description: 'The role in the organization (null: guest).' }), expiresAt }),
    z.strictObject({
      level: NullableRole.openapi({ description: 'The role on the space.' }),
      space: z.string().min(1).max(128).openapi({ description: 'The id of a space of the organization.' }),
      expiresAt,
    }),
    z.strictObject({
      level: NullableRole.openapi({ description: 'The role on the collection.' }),
      collection: z.string().min(1).max(128).openapi({ description: 'The id of a collection of the organization.' }),
      expiresAt,
    }),
  ])
  .openapi('CreateOrganizationInvite');

const UpdateOrganizationInvite = z
  .union([
    z.strictObject({ role: NullableRole.openapi({ description: 'The new role of an invite to the organization.' }) }),
    z.strictObject({ level: NullableRole.openapi({ description: 'The new level of an invite to a space or collection.' }) }),
  ])
  .openapi('UpdateOrganizationInvite');

const inviteResponse = (description: string) => ({ description, schema: OrganizationInviteLink, example: organizationInviteExample });

export const inviteOperations = operations({
  listOrganizationInviteLinks: {
    method: 'get',
    path: '/orgs/{organizationId}/link-invites',
    tag: 'organizations',
    summary: 'List the invite links of an organization',
    description: 'The invite links of the organization that have not expired, oldest first.',
    params: OrganizationIdParams,
    query: z.object({ ...paginationQuery }),
    responses: {
      200: { description: 'A page of invite links.', schema: listOf('OrganizationInviteLinkList', OrganizationInviteLink), example: listExample([organizationInviteExample]) },
    },
    errors: [403],
    access: access.organization('admin'),
  },
  createOrganizationInvite: {
    method: 'post',
    path: '/orgs/{organizationId}/link-invites',
    tag: 'organizations',
    summary: 'Create an invite link',
    description:
      'Creates an invite link to the organization (`role`), to a space (`space`, `level`) or to a collection (`collection`, `level`) of it, ' +
      'optionally expiring at `expiresAt`. An organization with `inviteLinks` false takes none (400); an unknown space or collection is 404, ' +
      'naming the field; an `expiresAt` in the past is 400.',
    params: OrganizationIdParams,
    body: CreateOrganizationInvite,
    bodyExample: { role: 'edit', expiresAt: '2026-06-01T00:00:00.000Z' },
    responses: { 201: inviteResponse('The created invite link.') },
    errors: [403, 404],
    access: access.organization('admin'),
  },
  getOrganizationInviteLink: {
    method: 'get',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    tag: 'organizations',
    summary: 'Get an invite link',
    description:
      'Returns an invite link to whoever has its id (the person about to join with it, who need not be a member). ' +
      'An unknown, revoked or expired invite is not found (404).',
    params: InviteIdParams,
    responses: { 200: inviteResponse('The invite link.') },
    errors: [404],
    access: access.caller(),
  },
  updateOrganizationInviteById: {
    method: 'patch',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    tag: 'organizations',
    summary: 'Change an invite link',
    description:
      'Changes the role of an invite to the organization (`role`) or the level of an invite to a space or collection (`level`); ' +
      'the other field is 400. An unknown invite is 404.',
    params: InviteIdParams,
    body: UpdateOrganizationInvite,
    bodyExample: { role: 'comment' },
    responses: { 200: inviteResponse('The changed invite link.') },
    errors: [403, 404],
    access: access.organization('admin'),
  },
  joinOrganizationWithInvite: {
    method: 'post',
    path: '/orgs/{organizationId}/invites/{inviteId}',
    tag: 'organizations',
    summary: 'Join an organization with an invite link',
    description:
      'Makes the caller a member of the organization with what the invite gives: its role (an invite to the organization), or the ' +
      "level on its space or collection, joining as a guest when not a member (an invite to content). A member keeps a stronger role than the invite's. " +
      'Unknown or revoked: 404. Expired, an organization with `inviteLinks` false, or one that enforces `sso` (joined only through its SAML providers), ' +
      "or an account created by another organization's SAML sign-in: 400.",
    params: InviteIdParams,
    responses: { 200: { description: 'The caller is a member with what the invite gives.', schema: z.object({}).openapi('JoinedWithInvite'), example: {} } },
    errors: [404],
    access: access.caller(),
  },
});

