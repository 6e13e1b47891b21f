// Installations of an integration's installation on one space or one docs site: one module for both
// targets, parameterised by a `Target` (the table, the column naming the space or site, the events).
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { components } from '../../generated/types.js';
import { spaceCounts } from '../change-requests/space-counts.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { attachAll, attachListPage, attachSelect, rowsOf } from '../db/attached-select.js';
import { keysetPageSelects, listBody, readKeysetPage, type PageRequest } from '../db/paginate.js';
import { integrationSiteInstallations, integrationSpaceInstallations, organizations, sites, spaces } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { factsOf, siteFactFields } from '../sites/site-features.js';
import { toSite } from '../sites/site-view.js';
import { toSpace } from '../spaces/space-view.js';
import { checkConfiguration } from './configuration.js';
import { recordEvent } from './events.store.js';
import { administeredIntegrationWith } from './integration-access.js';
import { installationGrant, readableInstallationWith, readInstallationGrant, type InstallationGrant } from './installation-access.js';
import { targetEndpointPath } from './integration-view.js';

export type TargetKind = 'space' | 'site';
type SpaceItem = components['schemas']['IntegrationSpaceInstallation'];
type SiteItem = components['schemas']['IntegrationSiteInstallation'];
type Item<K extends TargetKind> = K extends 'space' ? SpaceItem : SiteItem;

/** A row of either table, the target's id read through `Target.idOf`. */
type SpaceInstallationRow = typeof integrationSpaceInstallations.$inferSelect;
export type TargetInstallationRow = Omit<SpaceInstallationRow, 'spaceId'>;

interface Target {
  kind: TargetKind;
  /** Typed as the space table: the two tables have the same columns but for the target's. */
  table: typeof integrationSpaceInstallations;
  targetColumn: PgColumn;
  idOf(row: TargetInstallationRow): string;
  idPrefix: string;
  /** The installation's column saying whether it covers every space (site) of its organization. */
  selection: 'spaceSelection' | 'siteSelection';
}

const targets: Record<TargetKind, Target> = {
  space: {
    kind: 'space',
    table: integrationSpaceInstallations,
    targetColumn: integrationSpaceInstallations.spaceId,
    idOf: (row) => (row as SpaceInstallationRow).spaceId,
    idPrefix: 'isi',
    selection: 'spaceSelection',
  },
  site: {
    kind: 'site',
    table: integrationSiteInstallations as unknown as typeof integrationSpaceInstallations,
    targetColumn: integrationSiteInstallations.siteId,
    idOf: (row) => (row as unknown as typeof integrationSiteInstallations.$inferSelect).siteId,
    idPrefix: 'iti',
    selection: 'siteSelection',
  },
};

export interface TargetItemsQuery extends PageRequest {
  externalId?: string;
  extended: boolean;
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * The installations on `kind` of an integration, across its installations, in creation order (admins of
 * the owner only), optionally those with an external id. With `extended`, each target is the object. Read
 * with the integration's grant.
 */
export async function listIntegrationTargets<K extends TargetKind>(ctx: Ctx, name: string, kind: K, query: TargetItemsQuery) {
  const t = targets[kind];
  const selects = targetPageSelects(ctx, t, and(eq(t.table.integrationName, name), externalIdFilter(t, query.externalId)), query);
  const { attached } = await administeredIntegrationWith(ctx, name, selects.read);
  return targetPage<K>(ctx, t, selects, attached, null);
}

/** The installations on `kind` of one installation, in the order they were added, read with its grant. */
export async function listInstallationTargets<K extends TargetKind>(ctx: Ctx, name: string, installationId: string, kind: K, query: TargetItemsQuery) {
  const t = targets[kind];
  const selects = targetPageSelects(ctx, t, eq(t.table.installationId, installationId), query);
  const { grant, attached } = await readableInstallationWith(ctx, name, installationId, selects.read);
  return targetPage<K>(ctx, t, selects, attached, roleOf(grant));
}

/** The installation on one space (site), read with the installation's grant; NotFound when it is not installed there. */
export async function getTargetInstallation<K extends TargetKind>(ctx: Ctx, name: string, installationId: string, kind: K, targetId: string, extended: boolean): Promise<Item<K>> {
  const t = targets[kind];
  const row = rowSelect(ctx.db, t, installationId, targetId);
  const objects = extended ? targetObjects(ctx, kind, [targetId]) : undefined;
  const read = objects ? attachAll('target', attachSelect('target_row', row), objects.read) : attachSelect('target_row', row);
  const { grant, attached } = await readableInstallationWith(ctx, name, installationId, read);
  const [found] = await rowsOf(attached, 'target_row', row);
  if (!found) throw new NotFound(`The integration ${name} is not installed on the ${kind} ${targetId}`);
  const byId = objects ? await objects.byId(attached, roleOf(grant)) : new Map<string, unknown>();
  return renderItems(ctx, t, [found], byId)[0] as Item<K>;
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * Installs the installation on a space (site) of its organization, or returns the one already there
 * (`created` false). A new one starts active with no configuration and emits `<kind>_installation_setup`.
 */
export async function installOnTarget<K extends TargetKind>(ctx: Ctx, name: string, installationId: string, kind: K, targetId: string, extended: boolean) {
  return ctx.transaction(async (tx) => {
    const grant = await installationGrant(tx, name, installationId, 'manage', true);
    const t = targets[kind];
    if (grant.integration.target !== 'all' && grant.integration.target !== kind) {
      throw new BadRequest(`The integration ${name} cannot be installed on a ${kind}: its target is ${grant.integration.target}`);
    }
    await requireTargetInOrganization(tx.db, kind, targetId, grant.installation.organizationId);
    const now = tx.now();
    const values = {
      id: newId(t.idPrefix, now.getTime()),
      installationId,
      integrationName: name,
      status: 'active',
      configuration: {},
      externalIds: [],
      createdAt: now,
      [kind === 'space' ? 'spaceId' : 'siteId']: targetId,
    } as unknown as SpaceInstallationRow;
    // The unique (installation, target) index: installing twice (or concurrently) keeps one.
    const [created] = await tx.db.insert(t.table).values(values).onConflictDoNothing().returning();
    if (created) {
      await emit(tx, grant, kind, targetId, `${kind}_installation_setup`, { status: created.status, previous: { status: 'pending', configuration: {} } });
    }
    const row = created ?? (await findRow(tx.db, t, installationId, targetId))!;
    const item = renderItems(tx, t, [row], await readObjects(tx, kind, [targetId], extended, roleOf(grant)))[0] as Item<K>;
    return { item, created: created !== undefined };
  });
}

export interface TargetInstallationUpdate {
  configuration?: Record<string, unknown>;
  externalIds?: string[];
}

/**
 * Replaces the configuration and/or the external ids of the installation on a space (site). A change of
 * configuration is checked against the integration's form for the target and emits
 * `<kind>_installation_setup` with the previous state.
 */
export async function updateTargetInstallation<K extends TargetKind>(ctx: Ctx, name: string, installationId: string, kind: K, targetId: string, update: TargetInstallationUpdate, extended: boolean): Promise<Item<K>> {
  return ctx.transaction(async (tx) => {
    const grant = await installationGrant(tx, name, installationId, 'manage', true);
    const t = targets[kind];
    const row = await findRow(tx.db, t, installationId, targetId, true);
    if (!row) throw new NotFound(`The integration ${name} is not installed on the ${kind} ${targetId}`);
    const configuration = update.configuration && checkConfiguration(grant.integration.configurations, kind, update.configuration);
    const [updated] = await tx.db
      .update(t.table)
      .set({ ...(configuration && { configuration }), ...(update.externalIds && { externalIds: [...new Set(update.externalIds)] }) })
      .where(eq(t.table.id, row.id))
      .returning();
    if (configuration) {
      await emit(tx, grant, kind, targetId, `${kind}_installation_setup`, { status: updated.status, previous: { status: row.status, configuration: row.configuration } });
    }
    return renderItems(tx, t, [updated], await readObjects(tx, kind, [targetId], extended, roleOf(grant)))[0] as Item<K>;
  });
}

/**
 * Removes the installation from a space (site) and emits `<kind>_installation_deleted`. Nothing to do
 * when it is not installed there or the caller cannot see the installation (the caller gets 204 anyway).
 */
export async function uninstallFromTarget(ctx: Ctx, name: string, installationId: string, kind: TargetKind, targetId: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    if (!(await readInstallationGrant(tx, name, installationId))) return;
    const grant = await installationGrant(tx, name, installationId, 'manage', true);
    const t = targets[kind];
    const [removed] = await tx.db
      .delete(t.table)
      .where(and(eq(t.table.installationId, installationId), eq(t.targetColumn, targetId)))
      .returning();
    if (removed) await emit(tx, grant, kind, targetId, `${kind}_installation_deleted`, { previous: { configuration: removed.configuration } });
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

function roleOf(grant: InstallationGrant) {
  // The admins of the installation's organization are admins of its spaces and sites; the owner's admins
  // reading across organizations have no role there.
  return grant.canManage ? ('admin' as const) : null;
}

function externalIdFilter(t: Target, externalId: string | undefined): SQL | undefined {
  return externalId !== undefined ? sql`${externalId}::text = ANY(${t.table.externalIds})` : undefined;
}

/** The select of the installation's row on a space (site). */
function rowSelect(db: Db, t: Target, installationId: string, targetId: string) {
  return db.select().from(t.table).where(and(eq(t.table.installationId, installationId), eq(t.targetColumn, targetId)));
}

async function findRow(db: Db, t: Target, installationId: string, targetId: string, lock = false): Promise<TargetInstallationRow | undefined> {
  const query = rowSelect(db, t, installationId, targetId);
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** A space (site) of the organization that can receive an installation: not deleted, not elsewhere. */
async function requireTargetInOrganization(db: Db, kind: TargetKind, targetId: string, organizationId: string): Promise<void> {
  const found =
    kind === 'space'
      ? await db.select({ id: spaces.id }).from(spaces).where(and(eq(spaces.id, targetId), eq(spaces.organizationId, organizationId), isNull(spaces.deletedAt)))
      : await db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, targetId), eq(sites.organizationId, organizationId)));
  if (found.length === 0) throw new NotFound(`No ${kind} ${targetId} in the organization of the installation`);
}

async function emit(ctx: Ctx, grant: InstallationGrant, kind: TargetKind, targetId: string, type: `${TargetKind}_installation_${'setup' | 'deleted'}`, fields: Record<string, unknown>) {
  await recordEvent(ctx.db, ctx.now(), {
    integrationName: grant.integration.name,
    type,
    installationId: grant.installation.id,
    organizationId: grant.installation.organizationId,
    fields: { [kind === 'space' ? 'spaceId' : 'siteId']: targetId, ...fields },
  });
}

/** The selects of a page of installations on `kind` matching `where` and, with `extended`, of their spaces (sites), attached as one read. */
function targetPageSelects(ctx: Ctx, t: Target, where: SQL | undefined, query: TargetItemsQuery) {
  const page = keysetPageSelects(ctx.db, t.table, where, [t.table.id], query);
  const objects = query.extended ? targetObjects(ctx, t.kind, sql`(SELECT p.${sql.identifier(t.targetColumn.name)} FROM ${page.rows} p)`) : undefined;
  const read = objects ? attachAll('targets', attachListPage('targets', page), objects.read) : attachListPage('targets', page);
  return { page, objects, read };
}

/** The page targetPageSelects selects, from `attached` (the statement that read it with its grant), as the list's envelope. */
async function targetPage<K extends TargetKind>(ctx: Ctx, t: Target, selects: ReturnType<typeof targetPageSelects>, attached: Record<string, unknown>, role: 'admin' | null) {
  const page = await readKeysetPage(attached, 'targets', selects.page);
  const byId = selects.objects && page.rows.length > 0 ? await selects.objects.byId(attached, role) : new Map<string, unknown>();
  const items = renderItems(ctx, t, page.rows, byId) as Item<K>[];
  let i = 0;
  return listBody(page, () => items[i++]);
}

/** The API form of rows of one table; a target found in `objects` (extended items) is shown as that object, else by its id. */
function renderItems(ctx: Ctx, t: Target, rows: TargetInstallationRow[], objects: Map<string, unknown>): (SpaceItem | SiteItem)[] {
  return rows.map((row) => {
    const targetId = t.idOf(row);
    const path = targetEndpointPath(row.integrationName, row.installationId, t.kind, targetId);
    const base = {
      integration: row.integrationName,
      installation: row.installationId,
      status: row.status as SpaceItem['status'],
      configuration: row.configuration,
      externalIds: row.externalIds,
      urls: {
        location: ctx.urls.api(`/integrations/${encodeURIComponent(row.integrationName)}/installations/${row.installationId}/${t.kind}s/${targetId}`),
        publicEndpoint: ctx.urls.root(path),
        // No separate origin for rendered content here: GitBook's API says it then equals publicEndpoint.
        publicContentEndpoint: ctx.urls.root(path),
      },
    };
    const target = objects.get(targetId) ?? targetId;
    return t.kind === 'space' ? ({ ...base, space: target } as SpaceItem) : ({ ...base, site: target } as SiteItem);
  });
}

/**
 * The spaces (sites) `ids` names (a list, or a subquery of ids) as extended items show them: their select,
 * attached as `target_objects`, and their API forms by id, from the statement that read them (`attached`)
 * or read now.
 */
function targetObjects(ctx: Ctx, kind: TargetKind, ids: string[] | SQL) {
  if (kind === 'space') {
    const select = ctx.db.select({ space: spaces, counts: spaceCounts() }).from(spaces).where(inArray(spaces.id, ids));
    return {
      read: attachSelect('target_objects', select),
      byId: async (attached: Record<string, unknown> | undefined, role: 'admin' | null) =>
        new Map<string, unknown>((await rowsOf(attached, 'target_objects', select)).map((s) => [s.space.id, toSpace(ctx, { ...s.space, ...s.counts }, role)])),
    };
  }
  const select = ctx.db
    .select({ site: sites, org: organizations, ...siteFactFields() })
    .from(sites)
    .innerJoin(organizations, eq(organizations.id, sites.organizationId))
    .where(inArray(sites.id, ids));
  return {
    read: attachSelect('target_objects', select),
    byId: async (attached: Record<string, unknown> | undefined, role: 'admin' | null) =>
      new Map<string, unknown>((await rowsOf(attached, 'target_objects', select)).map((r) => [r.site.id, toSite(ctx, r.org, r.site, factsOf(r), role)])),
  };
}

/** The spaces (sites) `ids` names by id when `extended` (targetObjects), read now; none otherwise. */
async function readObjects(ctx: Ctx, kind: TargetKind, ids: string[], extended: boolean, role: 'admin' | null): Promise<Map<string, unknown>> {
  return extended && ids.length > 0 ? targetObjects(ctx, kind, ids).byId(undefined, role) : new Map();
}

/** How many spaces an installation is on: every live space of its organization with `space_selection: all`. */
export function spacesCount(): SQL<number> {
  return sql<number>`(CASE WHEN "integration_installations"."space_selection" = 'all'
    THEN (SELECT count(*) FROM spaces AS s WHERE s.organization_id = "integration_installations"."organization_id" AND s.deleted_at IS NULL)
    ELSE (SELECT count(*) FROM integration_space_installations AS isi WHERE isi.installation_id = "integration_installations"."id") END)`.mapWith(Number);
}

