// SAML providers of an organization: settings, status and the service-provider URLs derived from the
// public URL (served by saml.routes.ts). Membership and role are checked by the access layer (the grant) before these run.
import { and, eq, inArray, isNotNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { z } from 'zod';
import type { ssoOperations } from '../../contract/sso.js';
import type { components } from '../../generated/types.js';
import type { OrganizationGrant } from '../auth/access.js';
import { attachedRows, rowsOf } from '../db/attached-select.js';
import { asRole } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { keysetPageSelects, readKeysetPage, type PageRequest } from '../db/paginate.js';
import { organizations, samlProviders, teams } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import type { Urls } from '../urls.js';
import { newId } from '../ids.js';
import { teamFields, toTeam, type Team, type TeamRow } from '../teams/team-view.js';
import { checkCertificate } from './certificate.js';
import { isActive } from './saml-settings.js';
import { serviceUrls } from './service-urls.js';

type SAMLProvider = components['schemas']['SAMLProvider'];
type Row = typeof samlProviders.$inferSelect;
type CreateBody = z.output<typeof ssoOperations.createOrganizationSAMLProvider.body>;
type UpdateBody = z.output<typeof ssoOperations.updateOrganizationSAMLProvider.body>;

function toSAMLProvider(row: Row, team: Team | undefined, organizationDefaultRole: string | null, urls: Urls): SAMLProvider {
  return {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    ...(row.ssoUrl !== null && { ssoURL: row.ssoUrl }),
    ...(row.entityId !== null && { entityID: row.entityId }),
    ...(row.certificate !== null && { certificate: row.certificate }),
    ...(team && { defaultTeam: team }),
    // Unset, newcomers get the organization's default role: the role in effect, as GitBook shows it.
    defaultRole: asRole(row.defaultRoleSet ? row.defaultRole : organizationDefaultRole),
    createdAt: row.createdAt.toISOString(),
    status: isActive(row) ? 'active' : 'pending',
    service: serviceUrls(urls, row.id),
    urls: { location: urls.api(`/orgs/${row.organizationId}/saml/${row.id}`) },
  };
}

/** The default teams of the given providers, in one query. */
async function teamsOf(ctx: Ctx, rows: Row[]): Promise<TeamRow[]> {
  const ids = [...new Set(rows.map((r) => r.defaultTeamId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return [];
  return ctx.db.select(teamFields(ctx.caller.userId)).from(teams).where(inArray(teams.id, ids));
}

/**
 * The select of the default teams of the providers that `providers` (a select of provider rows) reads,
 * found in SQL from it, so that they can come in the statement that reads the providers.
 */
function defaultTeamsSelect(ctx: Ctx, providers: SQLWrapper) {
  return ctx.db
    .select(teamFields(ctx.caller.userId))
    .from(teams)
    .where(inArray(teams.id, sql`(SELECT p.default_team_id FROM ${providers} p)`));
}

/** Providers as the API shows them, with their default teams (`teamRows`: read already; else read now). */
async function present(ctx: Ctx, grant: OrganizationGrant, rows: Row[], teamRows?: TeamRow[]): Promise<SAMLProvider[]> {
  const byId = new Map((teamRows ?? (await teamsOf(ctx, rows))).map((t) => [t.team.id, toTeam(t, grant.role)]));
  return rows.map((row) => toSAMLProvider(row, row.defaultTeamId === null ? undefined : byId.get(row.defaultTeamId), grant.organization.defaultRole, ctx.urls));
}

/** Refuses a default team the organization does not have (400, as the description says). */
async function checkDefaultTeam(ctx: Ctx, grant: OrganizationGrant, teamId: string | undefined): Promise<void> {
  if (teamId === undefined) return;
  const [team] = await ctx.db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.organizationId, grant.organization.id), eq(teams.id, teamId)));
  if (!team) throw new BadRequest(`Invalid request: body.defaultTeam: team ${teamId} not found in this organization`);
}

/** The columns a create or update body sets (undefined: unchanged). */
async function columnsOf(ctx: Ctx, grant: OrganizationGrant, body: UpdateBody) {
  await checkDefaultTeam(ctx, grant, body.defaultTeam);
  return {
    label: body.label,
    ssoUrl: body.ssoURL,
    entityId: body.entityID,
    certificate: body.certificate === undefined ? undefined : checkCertificate(body.certificate),
    defaultTeamId: body.defaultTeam,
    defaultRole: body.defaultRole,
    defaultRoleSet: body.defaultRole === undefined ? undefined : true,
  };
}

/**
 * The selects of one page of the organization's providers in creation order, and of their default teams:
 * as listSAMLProviders reads them, and listSAMLProvidersInOrganizationById attaches them (attached-reads.ts).
 */
export function providersPageSelects(ctx: Ctx, organizationId: string, page: PageRequest) {
  const providers = keysetPageSelects(ctx.db, samlProviders, eq(samlProviders.organizationId, organizationId), [samlProviders.id], page);
  return { page: providers, defaultTeams: defaultTeamsSelect(ctx, providers.rows) };
}

/** The providers of the organization, in creation order (providersPageSelects), from the grant's statement when they came with it. */
export async function listSAMLProviders(ctx: Ctx, grant: OrganizationGrant, page: PageRequest) {
  const selects = providersPageSelects(ctx, grant.organization.id, page);
  const result = await readKeysetPage(grant.attached, 'saml_providers', selects.page);
  const items = await present(ctx, grant, result.rows, attachedRows(grant.attached, 'saml_default_teams', selects.defaultTeams));
  return { items, count: result.count, ...(result.next && { next: result.next }) };
}

/** Adds a provider (pending until ssoURL, entityID and certificate are all set). */
export async function createSAMLProvider(ctx: Ctx, grant: OrganizationGrant, body: CreateBody): Promise<SAMLProvider> {
  const columns = await columnsOf(ctx, grant, body);
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(samlProviders)
    .values({
      id: newId('sml', now.getTime()),
      organizationId: grant.organization.id,
      label: body.label,
      ssoUrl: columns.ssoUrl ?? null,
      entityId: columns.entityId ?? null,
      certificate: columns.certificate ?? null,
      defaultTeamId: columns.defaultTeamId ?? null,
      defaultRole: columns.defaultRole ?? null,
      defaultRoleSet: columns.defaultRoleSet ?? false,
      createdAt: now,
    })
    .returning();
  return (await present(ctx, grant, [row]))[0];
}

/**
 * The selects of one provider of the organization and of its default team: as getSAMLProvider reads them,
 * and getOrganizationSAMLProviderById attaches them (attached-reads.ts).
 */
export function providerSelects(ctx: Ctx, organizationId: string, id: string) {
  const provider = ctx.db.select().from(samlProviders).where(and(eq(samlProviders.organizationId, organizationId), eq(samlProviders.id, id)));
  return { provider, defaultTeam: defaultTeamsSelect(ctx, provider) };
}

/** One provider of the organization; NotFound otherwise. Read from the grant's statement when it came with it. */
export async function getSAMLProvider(ctx: Ctx, grant: OrganizationGrant, id: string): Promise<SAMLProvider> {
  const selects = providerSelects(ctx, grant.organization.id, id);
  const [row] = await rowsOf(grant.attached, 'saml_provider', selects.provider);
  if (!row) throw new NotFound(`SAML provider ${id} not found`);
  return (await present(ctx, grant, [row], attachedRows(grant.attached, 'saml_default_team', selects.defaultTeam)))[0];
}

/** Changes the given settings; NotFound for an unknown provider. */
export async function updateSAMLProvider(ctx: Ctx, grant: OrganizationGrant, id: string, body: UpdateBody): Promise<SAMLProvider> {
  const columns = await columnsOf(ctx, grant, body);
  if (Object.values(columns).every((v) => v === undefined)) return getSAMLProvider(ctx, grant, id);
  const [row] = await ctx.db
    .update(samlProviders)
    .set(columns)
    .where(and(eq(samlProviders.organizationId, grant.organization.id), eq(samlProviders.id, id)))
    .returning();
  if (!row) throw new NotFound(`SAML provider ${id} not found`);
  return (await present(ctx, grant, [row]))[0];
}

/** Removes a provider; nothing to do when it does not exist. */
export async function deleteSAMLProvider(ctx: Ctx, grant: OrganizationGrant, id: string): Promise<void> {
  await ctx.db.delete(samlProviders).where(and(eq(samlProviders.organizationId, grant.organization.id), eq(samlProviders.id, id)));
}

/** The active providers' sign-in options of any organization, in creation order (not paginated); NotFound for an unknown organization. */
export async function listSSOLogins(ctx: Ctx, organizationId: string) {
  // The organization joined to its providers, so that whether it exists comes with them: one row without
  // a provider when it has none, no row when it does not exist.
  const rows = await ctx.db
    .select({ id: samlProviders.id, label: samlProviders.label })
    .from(organizations)
    .leftJoin(
      samlProviders,
      and(
        eq(samlProviders.organizationId, organizations.id),
        isNotNull(samlProviders.ssoUrl),
        isNotNull(samlProviders.entityId),
        isNotNull(samlProviders.certificate),
      ),
    )
    .where(eq(organizations.id, organizationId))
    .orderBy(samlProviders.id);
  if (rows.length === 0) throw new NotFound(`Organization ${organizationId} not found`);
  const providers = rows.filter((r): r is { id: string; label: string } => r.id !== null);
  return { items: providers.map((r) => ({ id: r.id, label: r.label, startURL: serviceUrls(ctx.urls, r.id).startURL })) };
}
