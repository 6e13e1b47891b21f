// Grants of roles on content (spaces, collections, sites) to organization members and teams. The access
// layer reads them with every request (server/auth/grants.ts); the rule is written in docs/permissions.md.
import { sql } from 'drizzle-orm';
import { check, foreignKey, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from './columns.js';
import { collections, spaces } from './content.js';
import { members, organizations } from './core.js';
import { roleValues } from './enums.js';
import { teams } from './members.js';
import { sites } from './sites.js';

/**
 * One role given on one resource (exactly one of space, collection, site) to one principal (exactly one
 * of a member, a team). A member leaving the organization, a team deleted, a resource deleted: their
 * grants go with them (cascades). A space transferred keeps only the grants of members of its new
 * organization (server/permissions/grant-cleanup.ts).
 */
export const contentGrants = pgTable(
  'content_grants',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    spaceId: text('space_id').references(() => spaces.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id').references(() => collections.id, { onDelete: 'cascade' }),
    siteId: text('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    userId: text('user_id'),
    teamId: text('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // A member's grants are the membership's: removing the member removes them.
    foreignKey({ columns: [t.organizationId, t.userId], foreignColumns: [members.organizationId, members.userId] }).onDelete('cascade'),
    uniqueIndex('content_grants_space_user_idx').on(t.spaceId, t.userId).where(sql`space_id IS NOT NULL AND user_id IS NOT NULL`),
    uniqueIndex('content_grants_space_team_idx').on(t.spaceId, t.teamId).where(sql`space_id IS NOT NULL AND team_id IS NOT NULL`),
    uniqueIndex('content_grants_collection_user_idx').on(t.collectionId, t.userId).where(sql`collection_id IS NOT NULL AND user_id IS NOT NULL`),
    uniqueIndex('content_grants_collection_team_idx').on(t.collectionId, t.teamId).where(sql`collection_id IS NOT NULL AND team_id IS NOT NULL`),
    uniqueIndex('content_grants_site_user_idx').on(t.siteId, t.userId).where(sql`site_id IS NOT NULL AND user_id IS NOT NULL`),
    uniqueIndex('content_grants_site_team_idx').on(t.siteId, t.teamId).where(sql`site_id IS NOT NULL AND team_id IS NOT NULL`),
    // The grants on one resource, of users and teams alike: the lists' role functions (space_granted, …) ask
    // for a user's OR their teams' grants on it, which the (resource, principal) indexes above cannot serve.
    index('content_grants_space_idx').on(t.spaceId).where(sql`space_id IS NOT NULL`),
    index('content_grants_collection_idx').on(t.collectionId).where(sql`collection_id IS NOT NULL`),
    index('content_grants_site_idx').on(t.siteId).where(sql`site_id IS NOT NULL`),
    index('content_grants_member_idx').on(t.organizationId, t.userId),
    index('content_grants_team_idx').on(t.teamId),
    check('content_grants_role_check', sql.raw(`role IN (${oneOf(roleValues)})`)),
    check('content_grants_one_resource_check', sql`num_nonnulls(space_id, collection_id, site_id) = 1`),
    check('content_grants_one_principal_check', sql`num_nonnulls(user_id, team_id) = 1`),
  ],
);

