// Integrations published by organizations, their installations, their images and the events delivered
// to them (server/integrations/).
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, updatedAt } from './columns.js';
import { organizations, users } from './core.js';
import { spaces } from './content.js';
import { sites } from './sites.js';

// The value sets of the CHECK constraints. They repeat the contract's enums (contract/integrations.ts)
// because drizzle-kit loads the schema files on their own.
const visibilityValues = ['public', 'private', 'unlisted'] as const;
const targetValues = ['all', 'site', 'space', 'organization'] as const;
const installationStatusValues = ['active', 'pending', 'paused'] as const;
const selectionValues = ['all', 'selected'] as const;
/** `pending` until a delivery attempt is answered, then `success` (2xx) or `failed` after the last attempt. */
const eventStatusValues = ['pending', 'success', 'failed'] as const;

export const integrations = pgTable(
  'integrations',
  {
    name: text('name').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    summary: text('summary'),
    visibility: text('visibility').notNull(),
    target: text('target').notNull(),
    verified: boolean('verified').notNull().default(false),
    scopes: text('scopes').array().notNull(),
    categories: text('categories').array().notNull(),
    blocks: jsonb('blocks').$type<unknown[]>().notNull(),
    // Domains of the blocks' urlUnfurl prefixes, lower-cased, for the blockDomain filter.
    blockDomains: text('block_domains').array().notNull(),
    contentSources: jsonb('content_sources').$type<unknown[]>().notNull(),
    externalLinks: jsonb('external_links').$type<unknown[]>().notNull(),
    configurations: jsonb('configurations').$type<unknown>().notNull(),
    contentSecurityPolicy: jsonb('content_security_policy').$type<unknown>(),
    /** File name of the icon in integration_assets (e.g. `icon.png`), null without icon. */
    iconFile: text('icon_file'),
    /** File names of the preview images in integration_assets, in order. */
    previewFiles: text('preview_files').array().notNull(),
    /** Development mode: events are POSTed to this URL while set. */
    devTunnelUrl: text('dev_tunnel_url'),
    /** Development mode: forward the events of every organization, not only the owner's. */
    devAll: boolean('dev_all').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('integrations_org_idx').on(t.organizationId, t.name),
    check('integrations_visibility_check', sql.raw(`visibility IN (${oneOf(visibilityValues)})`)),
    check('integrations_target_check', sql.raw(`target IN (${oneOf(targetValues)})`)),
  ],
);

/** The script and its secrets, apart from the integration row so that no read of an integration loads them. */
export const integrationScripts = pgTable('integration_scripts', {
  integrationName: text('integration_name')
    .primaryKey()
    .references(() => integrations.name, { onDelete: 'cascade' }),
  runtime: text('runtime').notNull(),
  script: text('script').notNull(),
  /**
   * The script's SHA-256 (base64), set with it: a request reads the script's text only when this process
   * does not already hold that script (server/integrations/script-invocation.ts), and the runtime's warm
   * sandboxes are pooled by it.
   */
  scriptHash: text('script_hash').notNull().default(''),
  secrets: jsonb('secrets').$type<Record<string, string>>().notNull(),
});

/** Icons and preview images, served by GET /v1/integrations/{name}/assets/{file}. */
export const integrationAssets = pgTable(
  'integration_assets',
  {
    integrationName: text('integration_name')
      .notNull()
      .references(() => integrations.name, { onDelete: 'cascade' }),
    file: text('file').notNull(),
    contentType: text('content_type').notNull(),
    /** The image bytes, base64 (as received). */
    data: text('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.integrationName, t.file] })],
);

export const integrationInstallations = pgTable(
  'integration_installations',
  {
    id: text('id').primaryKey(),
    integrationName: text('integration_name')
      .notNull()
      .references(() => integrations.name, { onDelete: 'cascade' }),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    spaceSelection: text('space_selection').notNull(),
    siteSelection: text('site_selection').notNull(),
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull(),
    externalIds: text('external_ids').array().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One installation per organization: installing again returns it.
    uniqueIndex('integration_installations_org_key').on(t.integrationName, t.organizationId),
    index('integration_installations_list_idx').on(t.integrationName, t.id),
    index('integration_installations_external_ids_idx').using('gin', t.externalIds),
    check('integration_installations_status_check', sql.raw(`status IN (${oneOf(installationStatusValues)})`)),
    check('integration_installations_space_selection_check', sql.raw(`space_selection IN (${oneOf(selectionValues)})`)),
    check('integration_installations_site_selection_check', sql.raw(`site_selection IN (${oneOf(selectionValues)})`)),
  ],
);

/**
 * The temporary tokens of installations (createIntegrationInstallationToken): a script calls the API back
 * with one, as its installation, within the integration's scopes (server/auth/installation-caller.ts).
 * Uninstalling removes them. `userId` is the installation's own user, what it writes is signed with
 * (change requests, comments), one per installation and kept after it (authorship stays).
 */
export const integrationInstallationTokens = pgTable(
  'integration_installation_tokens',
  {
    id: text('id').primaryKey(),
    installationId: text('installation_id')
      .notNull()
      .references(() => integrationInstallations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // sha256 of the token, as for access tokens.
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('integration_installation_tokens_installation_idx').on(t.installationId)],
);

/**
 * The temporary tokens of integrations themselves (`apiTokens.integration` of a script's environment, the
 * token of `context.integration.api`): a script calls the API back with one as its integration, on its
 * own integration and installations only (server/auth/integration-caller.ts). `userId` is the integration's
 * own user. A token handed out with an event or request about an installation names it (`installationId`): a task
 * the integration queues with it (queueIntegrationTask, as @gitbook/runtime's `context.integration.queueTask`
 * does) is about that installation too (none once it is removed). Removed with the integration.
 */
export const integrationTokens = pgTable(
  'integration_tokens',
  {
    id: text('id').primaryKey(),
    integrationName: text('integration_name')
      .notNull()
      .references(() => integrations.name, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    installationId: text('installation_id').references(() => integrationInstallations.id, { onDelete: 'set null' }),
    // sha256 of the token, as for access tokens.
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('integration_tokens_integration_idx').on(t.integrationName), index('integration_tokens_installation_idx').on(t.installationId)],
);

/**
 * The signing secret of each integration, generated on first use (256 random bits, hex): a script's
 * `signingSecrets.integration`, and the root its installations' secrets are derived from
 * (server/integrations/signing-secrets.ts). Never what a publisher gave as a secret. Removed with the integration.
 */
export const integrationSigningSecrets = pgTable('integration_signing_secrets', {
  integrationName: text('integration_name')
    .primaryKey()
    .references(() => integrations.name, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});

/** The columns an installation on one space and one on one docs site share (all but the target). */
function targetInstallationColumns() {
  return {
    id: text('id').primaryKey(),
    installationId: text('installation_id')
      .notNull()
      .references(() => integrationInstallations.id, { onDelete: 'cascade' }),
    integrationName: text('integration_name')
      .notNull()
      .references(() => integrations.name, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull(),
    externalIds: text('external_ids').array().notNull(),
    createdAt: createdAt(),
  };
}

/** An installation on one space, made by installIntegrationOnSpace (server/integrations/target-installations.store.ts). */
export const integrationSpaceInstallations = pgTable(
  'integration_space_installations',
  {
    ...targetInstallationColumns(),
    spaceId: text('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('integration_space_installations_key').on(t.installationId, t.spaceId),
    index('integration_space_installations_list_idx').on(t.integrationName, t.id),
    check('integration_space_installations_status_check', sql.raw(`status IN (${oneOf(installationStatusValues)})`)),
  ],
);

/** An installation on one docs site, made by installIntegrationOnSite; its script is served on the site. */
export const integrationSiteInstallations = pgTable(
  'integration_site_installations',
  {
    ...targetInstallationColumns(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('integration_site_installations_key').on(t.installationId, t.siteId),
    index('integration_site_installations_list_idx').on(t.integrationName, t.id),
    check('integration_site_installations_status_check', sql.raw(`status IN (${oneOf(installationStatusValues)})`)),
  ],
);

export const integrationEvents = pgTable(
  'integration_events',
  {
    id: text('id').primaryKey(),
    integrationName: text('integration_name')
      .notNull()
      .references(() => integrations.name, { onDelete: 'cascade' }),
    installationId: text('installation_id').references(() => integrationInstallations.id, { onDelete: 'set null' }),
    /** The organization the event comes from: development mode forwards only the owner's unless `all`. */
    organizationId: text('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull(),
    /** The trace: one entry per log line `{ message, timestamp, level }`, appended by the delivery. */
    logs: jsonb('logs').$type<{ message: string; timestamp: string; level: 'debug' | 'info' | 'warn' | 'error' }[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('integration_events_list_idx').on(t.integrationName, t.id),
    // The tasks waiting to run, counted at each queueIntegrationTask against its limit: few rows, whatever
    // the history of delivered events.
    index('integration_events_pending_tasks_idx')
      .on(t.integrationName)
      .where(sql`${t.status} = 'pending' AND ${t.payload}->>'type' = 'task'`),
    check('integration_events_status_check', sql.raw(`status IN (${oneOf(eventStatusValues)})`)),
  ],
);
