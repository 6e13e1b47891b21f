// The database's table shapes. API shapes live in contract/; stores map rows to them explicitly.
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull();

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

export const organizations = pgTable('organizations', {
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
});

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
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] }), index('members_user_idx').on(t.userId)],
);

export const collections = pgTable(
  'collections',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    title: text('title').notNull(),
    description: text('description'),
    defaultLevel: text('default_level'),
    // Order among the items (spaces and collections) of the same parent.
    position: doublePrecision('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('collections_org_idx').on(t.organizationId, t.id), index('collections_parent_idx').on(t.parentId, t.position, t.id)],
);

export const spaces = pgTable(
  'spaces',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    title: text('title').notNull(),
    emoji: text('emoji').notNull(),
    visibility: text('visibility').notNull(),
    editMode: text('edit_mode').notNull(),
    mergeRules: jsonb('merge_rules').$type<unknown>().notNull(),
    language: text('language'),
    revisionId: text('revision_id').notNull(),
    defaultLevel: text('default_level'),
    position: doublePrecision('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('spaces_org_idx').on(t.organizationId, t.id), index('spaces_parent_idx').on(t.parentId, t.position, t.id)],
);
