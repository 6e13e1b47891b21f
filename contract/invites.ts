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
import { conditional } from './conditional.js';

export const inviteId = 'inv_Yq3l0Zk8cT2wXbV9nR4sAg';

const InviteIdParams = OrganizationIdParams.extend({
  inviteId: z.string().min(1).max(128).openapi({ description: 'The id of the invite link (what the link carries).', example: inviteId }),
});

const common = {
  object: z.literal('invite'),
  id: z.string().openapi({ description: 'The id of the invite: whoever has it may join with it, until it expires or is revoked.' }),
  redundant: z.boolean().openapi({ description: 'Whether the caller already has all that the invite gives.' }),
  expiresAt: DateTime.optional().openapi(conditional('When the invite stops letting anyone join; absent: it does not expire.')),
  createdAt: DateTime,
};

export const InviteLinkToOrganization = z
  .object({
    ...common,
    role: NullableRole.openapi({ description: 'The role in the organization the invite gives (null: guest).' }),
    email: z.string().optional().openapi({
      description:
        'An invite by email (`inviteUsersToOrganization`): the one person it is for. Used once, by that email\'s account ' +
        '(`joinOrganizationWithInvite` signed in as it) or through its one-time join link (which creates the account).',
    }),
  })
  .openapi('InviteLinkToOrganization');
const toSpace = { ...common, level: NullableRole.openapi({ description: 'The role on the space the invite gives (null: none).' }), space: Space };
const toCollection = { ...common, level: NullableRole.openapi({ description: 'The role on the collection the invite gives (null: none).' }), collection: Collection };
export const InviteLinkToSpace = z.object(toSpace).openapi('InviteLinkToSpace');
export const InviteLinkToCollection = z.object(toCollection).openapi('InviteLinkToCollection');

export const OrganizationInviteLink = z.union([InviteLinkToOrganization, InviteLinkToSpace, InviteLinkToCollection]).openapi('OrganizationInviteLink', {
  description: 'An invite link: to the organization with a role, or to a space or collection with a level on it (joining as a guest when not a member).',
});

// GitBook lists every invite as an invite to the organization (`role` required): a listed invite to content
// says the organization role it gives too. Only in the list: getOrganizationInviteLink's GitBook shape tells
// the kinds apart by `role` or `level`, and an invite to content with both would read as two kinds at once.
const guestRole = z.null().openapi({
  description: 'The role in the organization whoever joins through it gets when not a member: none, a guest (null). Members keep theirs.',
});
const ListedInviteLinkToSpace = z.object({ ...toSpace, role: guestRole }).openapi('ListedInviteLinkToSpace', {
  description: 'An invite link to a space, as the list of invite links shows it: with the organization role it gives (a guest).',
});
const ListedInviteLinkToCollection = z.object({ ...toCollection, role: guestRole }).openapi('ListedInviteLinkToCollection', {
  description: 'An invite link to a collection, as the list of invite links shows it: with the organization role it gives (a guest).',
});
const ListedInviteLink = z.union([InviteLinkToOrganization, ListedInviteLinkToSpace, ListedInviteLinkToCollection]).openapi('ListedInviteLink', {
  description: 'An invite link in the list: every one with the organization role it gives (`role`), those to content with their `level` on it too.',
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

// HTML's rule for an email (the one browsers check), which takes every address JSON Schema's `email` format does without quoting.
const Email = z.email({ pattern: z.regexes.html5Email }).max(254).openapi({ example: 'ada@example.com' });

const InviteUsersToOrganization = z
  .strictObject({
    emails: z
      .array(
        z.union([
          Email.openapi({ description: 'The email of a person to invite, with `role`.' }),
          z.strictObject({ email: Email, role: NullableRole.openapi({ description: 'The role of this person (null: guest).' }) }),
        ]),
      )
      .min(1)
      .max(100)
      .openapi({ description: 'Whom to invite: emails, or emails with a role of their own; the same email twice counts once (its last role).' }),
    role: NullableRole.optional().openapi({ description: "The role of those invited without one of their own (null: guest); absent: the organization's `defaultRole`." }),
    sso: z.boolean().optional().openapi({
      description: "Invite them as SSO members: they sign in through the organization's SAML provider. Always so when the organization enforces `sso`.",
    }),
    expiresAt: DateTime.optional().openapi({ description: 'When the one-time join links stop working (in the future); absent: in 7 days. An addition to the public API.' }),
  })
  .openapi('InviteUsersToOrganization');

const EmailInvitation = z
  .object({
    email: z.string().openapi({ description: 'The email invited (lower-cased).' }),
    role: NullableRole.openapi({ description: 'The role the person gets (null: guest).' }),
    sso: z.boolean().openapi({ description: "Whether the person signs in through the organization's SAML provider." }),
    url: z.url().openapi({
      description:
        'Where the person joins: the one-time join link (whose page creates their account and hands them an access token, or tells an existing ' +
        "account to join with `joinOrganizationWithInvite`), or, for a new SSO member added at once, the organization's SAML sign-in.",
    }),
    invite: z.string().optional().openapi(conditional('The id of the invite (one-time link): revoke it with `deleteOrganizationInviteById`; absent when the person was added at once.')),
    user: z.string().optional().openapi(conditional('The user added at once (a new SSO member); absent for a one-time link.')),
    expiresAt: DateTime.optional().openapi({ description: 'When the one-time link stops working.' }),
    mail: z.enum(['sent', 'failed', 'off']).openapi({
      description: 'Whether the link was mailed to the person: `sent`, `failed` (the invite stands: hand `url` over another way), or `off` (no `SMTP_URL` configured).',
    }),
  })
  .openapi('EmailInvitation');

const InvitedUsers = z
  .object({
    users: z.array(z.string()).openapi({ description: 'The users added to the organization at once (new SSO members).' }),
    invited: z.number().openapi({ description: 'How many people were invited: added at once or sent a one-time join link.' }),
    failedSSOEmails: z.array(z.string()).optional().openapi({
      description: "Emails not invited because their account was created by another organization's SSO sign-in (it belongs to that organization's identity provider).",
    }),
    alreadyMembers: z.array(z.string()).openapi({ description: 'Emails not invited because their account is already a member. An addition to the public API.' }),
    invitations: z.array(EmailInvitation).openapi({ description: 'One per person invited, with where they join. An addition to the public API.' }),
  })
  .openapi('InvitedUsers');

const inviteResponse = (description: string) => ({ description, schema: OrganizationInviteLink, example: organizationInviteExample });

export const inviteOperations = operations({
  inviteUsersToOrganization: {
    method: 'post',
    path: '/orgs/{organizationId}/invites',
    tag: 'organizations',
    summary: 'Invite users in an organization',
    description:
      'Invites people by email. Each gets a one-time join link (also listed with the invite links, with its `email`: revoked with `deleteOrganizationInviteById`, ' +
      'expiring at `expiresAt`), mailed to them when the server has `SMTP_URL`; the links are returned whether or not the mail went out (`mail` says). ' +
      'Where the organization enforces `sso` (or `sso` is true), a person without an account is added at once as an SSO member and signs in through the ' +
      "organization's SAML provider (400 when it has none); an existing account still gets a link and joins signed in as itself. " +
      "An account created by another organization's SSO sign-in is not invited (`failedSSOEmails`); a member already is not invited again (`alreadyMembers`).",
    params: OrganizationIdParams,
    body: InviteUsersToOrganization,
    bodyExample: { emails: ['ada@example.com', { email: 'grace@example.com', role: 'edit' }], role: 'read' },
    responses: {
      200: {
        description: 'Who was invited and where each joins.',
        schema: InvitedUsers,
        example: {
          users: [],
          invited: 1,
          alreadyMembers: [],
          invitations: [
            {
              email: 'ada@example.com',
              role: 'read',
              sso: false,
              url: 'https://api.example.com/auth/invite?token=eit_Yq3l0Zk8cT2wXbV9nR4sAgYq3l0Zk8cT2wXbV9nR4s',
              invite: inviteId,
              expiresAt: '2026-06-01T00:00:00.000Z',
              mail: 'sent',
            },
          ],
        },
      },
    },
    errors: [403, 409],
    access: access.organization('admin'),
    statements: 7,
  },
  listOrganizationInviteLinks: {
    method: 'get',
    path: '/orgs/{organizationId}/link-invites',
    tag: 'organizations',
    summary: 'List the invite links of an organization',
    description:
      'The invite links of the organization that have not expired, oldest first. Each says the organization role it gives ' +
      '(`role`): an invite to a space or collection gives none (null: a guest, for whoever is not a member) besides its `level` there.',
    params: OrganizationIdParams,
    query: z.object({ ...paginationQuery }),
    responses: {
      200: { description: 'A page of invite links.', schema: listOf('OrganizationInviteLinkList', ListedInviteLink), example: listExample([organizationInviteExample]) },
    },
    errors: [403],
    access: access.organization('admin'),
    statements: 1,
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
    statements: 5,
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
    // The invite, the caller's membership, and the space or collection of an invite to content, in one statement.
    statements: 1,
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
    statements: 4,
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
      "or an account created by another organization's SAML sign-in: 400. " +
      'An invite by email (`inviteUsersToOrganization`) is used once, only by the account with its `email` (400 for another), whatever `inviteLinks` says; ' +
      "in an organization that enforces `sso` it makes the caller an SSO member, who signs in through the organization's SAML provider from then on.",
    params: InviteIdParams,
    responses: { 200: { description: 'The caller is a member with what the invite gives.', schema: z.object({}).openapi('JoinedWithInvite'), example: {} } },
    errors: [404],
    access: access.caller(),
    statements: 8,
  },
});

