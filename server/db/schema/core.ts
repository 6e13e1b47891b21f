// Users, their access tokens, organizations and their members.
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from './columns.js';
import { roleValues } from './enums.js';

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    displayName: text('display_name').notNull(),
    email: text('email').notNull(),
    photoUrl: text('photo_url'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

export const apiTokens = pgTable('api_tokens', {
  id: text('id').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  // sha256 of the token: the token itself is shown once and never stored.
  tokenHash: text('token_hash').notNull().unique(),
  label: text('label').notNull(),
  createdAt: createdAt(),
});

export const organizations = pgTable(
  'organizations',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    emailDomains: jsonb('email_domains').$type<string[]>().notNull().default([]),
    hostname: text('hostname').unique(),
    type: text('type'),
    useCase: text('use_case'),
    communityType: text('community_type'),
    defaultRole: text('default_role'),
    defaultContentSite: text('default_content_site'),
    logoUrl: text('logo_url'),
    sso: boolean('sso').notNull().default(false),
    ai: boolean('ai').notNull().default(true),
    inviteLinks: boolean('invite_links').notNull().default(true),
    plan: text('plan').notNull().default('free_2024'),
    mergeRules: jsonb('merge_rules').$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('organizations_default_role_check', sql.raw(`default_role IN (${oneOf(roleValues)})`))],
);

export const members = pgTable(
  'members',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // null for guests
    role: text('role'),
    disabled: boolean('disabled').notNull().default(false),
    sso: boolean('sso').notNull().default(false),
    joinedAt: timestamp('joined_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('members_user_idx').on(t.userId),
    // Member lists sorted by join date or last activity (only the seen ones), in both directions.
    index('members_joined_idx').on(t.organizationId, t.joinedAt, t.userId),
    index('members_seen_idx').on(t.organizationId, t.lastSeenAt, t.userId).where(sql`last_seen_at IS NOT NULL`),
    check('members_role_check', sql.raw(`role IN (${oneOf(roleValues)})`)),
  ],
);
