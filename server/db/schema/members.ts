// Teams and their members, organization link invites, agent instructions, and the service's signing
// secrets. Organization members themselves are in core.ts (`members`).
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from './columns.js';
import { collections, spaces } from './content.js';
import { members, organizations, users } from './core.js';
import { roleValues } from './enums.js';

export const teamRoleValues = ['owner', 'member'] as const;

export const teams = pgTable(
  'teams',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('teams_org_idx').on(t.organizationId, t.id)],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id').notNull(),
    userId: text('user_id').notNull(),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    // Leaving the organization means leaving its teams.
    foreignKey({ columns: [t.organizationId, t.userId], foreignColumns: [members.organizationId, members.userId] }).onDelete('cascade'),
    index('team_members_member_idx').on(t.organizationId, t.userId),
    // A user's teams in any organization: what collection_chain_access (migration 0037) looks up for each
    // space a role is computed on (without it, a scan of every team membership per space).
    index('team_members_user_idx').on(t.userId),
    check('team_members_role_check', sql.raw(`role IN (${oneOf(teamRoleValues)})`)),
  ],
);

export const organizationInvites = pgTable(
  'organization_invites',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // null: the invite makes guests (or, for an invite to a space or collection, joins as a guest)
    role: text('role'),
    // An invite to content: the space or collection (at most one) and the level given on it.
    spaceId: text('space_id').references(() => spaces.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id').references(() => collections.id, { onDelete: 'cascade' }),
    level: text('level'),
    // Past it, the link no longer lets anyone join; null: it does not expire.
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    // An invite by email (inviteUsersToOrganization): for this one person (lower-cased), used once. The
    // one-time join link carries a secret of its own, of which only the sha256 is kept (server/invites/).
    email: text('email'),
    tokenHash: text('token_hash'),
    // The person joins as an SSO member (the organization enforces SSO, or the inviter asked for it).
    sso: boolean('sso').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('organization_invites_org_idx').on(t.organizationId),
    uniqueIndex('organization_invites_token_idx').on(t.tokenHash),
    check('organization_invites_email_check', sql`(email IS NULL) = (token_hash IS NULL)`),
    check('organization_invites_role_check', sql.raw(`role IN (${oneOf(roleValues)})`)),
    check('organization_invites_level_check', sql.raw(`level IN (${oneOf(roleValues)})`)),
    check('organization_invites_one_target_check', sql`num_nonnulls(space_id, collection_id) <= 1`),
  ],
);

/**
 * Accounts an invite by email created (their one-time join link was used by someone the inviting
 * organization sent it to, and showed to its admin): as for an account a SAML sign-in created, their email
 * counts as verified only for that organization (joining another one by email domain is refused).
 */
export const inviteCreatedUsers = pgTable('invite_created_users', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

export const agentInstructions = pgTable('agent_instructions', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  instructions: jsonb('instructions').$type<unknown>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/** Secrets of this database (e.g. the key signing `serviceVisitorClaims`), created on first use. */
export const serviceSecrets = pgTable('service_secrets', {
  name: text('name').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});
