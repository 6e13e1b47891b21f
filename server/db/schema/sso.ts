// SAML single sign-on providers of an organization.
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from './columns.js';
import { organizations } from './core.js';
import { roleValues } from './enums.js';
import { teams } from './members.js';

export const samlProviders = pgTable(
  'saml_providers',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    ssoUrl: text('sso_url'),
    entityId: text('entity_id'),
    certificate: text('certificate'),
    // A deleted team stops being the default one.
    defaultTeamId: text('default_team_id').references(() => teams.id, { onDelete: 'set null' }),
    // null: guests; absent (defaultRoleSet false): the organization's default role applies.
    defaultRole: text('default_role'),
    defaultRoleSet: boolean('default_role_set').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('saml_providers_org_idx').on(t.organizationId, t.id),
    check('saml_providers_default_role_check', sql.raw(`default_role IN (${oneOf(roleValues)})`)),
  ],
);
