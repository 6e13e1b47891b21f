// SAML single sign-on providers of an organization, and the short-lived state of SAML sign-ins. That state
// lives in the database, not in process memory, so every process behind a load balancer agrees on it.
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from './columns.js';
import { organizations, users } from './core.js';
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

const expiresAt = () => timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull();

/** AuthnRequests sent and still awaiting their response: a response must answer one of them (InResponseTo), once. */
export const samlRequests = pgTable(
  'saml_requests',
  {
    // The AuthnRequest's ID attribute.
    id: text('id').primaryKey(),
    providerId: text('provider_id')
      .notNull()
      .references(() => samlProviders.id, { onDelete: 'cascade' }),
    // Where the browser goes with its one-time code once signed in (checked against the allowed origins).
    returnTo: text('return_to').notNull(),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
  },
  (t) => [index('saml_requests_expires_idx').on(t.expiresAt)],
);

/** Ids of the assertions already accepted, kept until they expire: an assertion is accepted once. */
export const samlAssertions = pgTable(
  'saml_assertions',
  {
    providerId: text('provider_id')
      .notNull()
      .references(() => samlProviders.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: expiresAt(),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.assertionId] }), index('saml_assertions_expires_idx').on(t.expiresAt)],
);

/** One-time codes a successful sign-in hands to the browser, exchanged once for an access token. */
export const ssoSignInCodes = pgTable(
  'sso_sign_in_codes',
  {
    // sha256 of the code: the code itself is never stored.
    codeHash: text('code_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    providerId: text('provider_id')
      .notNull()
      .references(() => samlProviders.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: expiresAt(),
  },
  (t) => [index('sso_sign_in_codes_expires_idx').on(t.expiresAt)],
);

/**
 * Accounts a SAML sign-in created: their email was asserted by that organization's identity provider only,
 * so they do not count as verified anywhere else (joining another organization by email domain is refused).
 */
export const ssoCreatedUsers = pgTable('sso_created_users', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});
