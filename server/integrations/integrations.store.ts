// Integrations: publish (create or new version), read, list with filters, unpublish, development mode.
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { integrationOperations } from '../../contract/integrations.js';
import { requireOrganizationGrant } from '../auth/access.js';
import { asRole } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import { attachAll, attachListPage, attachSelect, readAttached, rowsOf } from '../db/attached-select.js';
import { keysetPageSelects, listBody, readKeysetPage } from '../db/paginate.js';
import { scriptHash } from '../runtime/script-runtime.js';
import { integrationAssets, integrations, integrationScripts, organizations } from '../db/schema/index.js';
import { BadRequest, Forbidden, NotFound } from '../errors.js';
import { administeredIntegration, canSee, isOwnerAdmin, readIntegration, visibleIntegration } from './integration-access.js';
import { toIntegration, type Integration } from './integration-view.js';
import { readImage, type Image } from './images.js';

type Ops = typeof integrationOperations;
export type PublishBody = z.output<Ops['publishIntegration']['body']>;
export type ListQuery = z.output<Ops['listIntegrations']['query']>;
export type DevModeBody = z.output<Ops['setIntegrationDevelopmentMode']['body']>;

/** The organization a publish names, by id or by hostname (case-insensitive); NotFound when neither matches. */
async function findPublisher(ctx: Ctx, idOrHostname: string): Promise<string> {
  const [found] = await ctx.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(or(eq(organizations.id, idOrHostname), eq(organizations.hostname, idOrHostname.toLowerCase())))
    .limit(1);
  if (!found) throw new NotFound(`Organization ${idOrHostname} not found (body.organization is neither an id nor a hostname)`);
  return found.id;
}

/** The lower-cased hosts of the blocks' urlUnfurl prefixes (with or without a scheme), for the blockDomain filter. */
export function blockDomains(blocks: PublishBody['blocks']): string[] {
  const hosts = new Set<string>();
  for (const prefix of (blocks ?? []).flatMap((b) => b.urlUnfurl ?? [])) {
    for (const candidate of [prefix, `https://${prefix}`]) {
      try {
        const host = new URL(candidate).hostname.toLowerCase();
        if (host) {
          hosts.add(host);
          break;
        }
      } catch {
        // not a URL this way; try the next
      }
    }
  }
  return [...hosts];
}

/**
 * Publishes `name` for the organization of `body.organization` (admin needed there): creates it at
 * version 1, or replaces its definition with the next version. Secrets omitted from a later publication
 * are kept (a script update should not wipe them); given ones replace them all. Images are checked first.
 */
export async function publishIntegration(ctx: Ctx, name: string, body: PublishBody): Promise<Integration> {
  const icon = body.icon !== undefined ? readImage(body.icon, 'body.icon') : undefined;
  const previews = (body.previewImages ?? []).map((image, i) => readImage(image, `body.previewImages.${i}`));
  return ctx.transaction(async (tx) => {
    const organizationId = await findPublisher(tx, body.organization);
    await requireOrganizationGrant(tx, organizationId, 'admin');
    const now = tx.now();
    const definition = {
      title: body.title,
      description: body.description,
      summary: body.summary ?? null,
      visibility: body.visibility ?? 'public',
      target: body.target ?? 'all',
      scopes: [...new Set(body.scopes)],
      categories: [...new Set(body.categories ?? [])],
      blocks: body.blocks ?? [],
      blockDomains: blockDomains(body.blocks),
      contentSources: body.contentSources ?? [],
      externalLinks: body.externalLinks ?? [],
      configurations: body.configurations ?? {},
      contentSecurityPolicy: body.contentSecurityPolicy ?? null,
      iconFile: icon ? `icon.${icon.extension}` : null,
      previewFiles: previews.map((p, i) => `preview-${i + 1}.${p.extension}`),
      updatedAt: now,
    };
    // Lock the name: a concurrent first publication waits on the insert's conflict, then takes the update path.
    let existing = await readIntegration(tx, name, true);
    if (!existing) {
      const [created] = await tx.db
        .insert(integrations)
        .values({ name, organizationId, version: 1, ...definition, createdAt: now })
        .onConflictDoNothing()
        .returning({ name: integrations.name });
      if (!created) existing = await readIntegration(tx, name, true);
    }
    if (existing) {
      if (existing.row.organizationId !== organizationId) {
        throw new Forbidden(`body.organization: the integration name ${name} belongs to another organization`);
      }
      await tx.db
        .update(integrations)
        .set({ version: existing.row.version + 1, ...definition })
        .where(eq(integrations.name, name));
    }
    const script = { runtime: body.runtime ?? 'v1', script: body.script, scriptHash: scriptHash(body.script) };
    await tx.db
      .insert(integrationScripts)
      .values({ integrationName: name, ...script, secrets: body.secrets ?? {} })
      .onConflictDoUpdate({ target: integrationScripts.integrationName, set: body.secrets ? { ...script, secrets: body.secrets } : script });
    await replaceAssets(tx, name, icon, previews, definition);
    const published = (await readIntegration(tx, name))!;
    return toIntegration(tx, published.row, published);
  });
}

async function replaceAssets(ctx: Ctx, name: string, icon: Image | undefined, previews: Image[], files: { iconFile: string | null; previewFiles: string[] }) {
  await ctx.db.delete(integrationAssets).where(eq(integrationAssets.integrationName, name));
  const rows = [
    ...(icon && files.iconFile ? [{ file: files.iconFile, image: icon }] : []),
    ...previews.map((image, i) => ({ file: files.previewFiles[i], image })),
  ].map(({ file, image }) => ({ integrationName: name, file, contentType: image.contentType, data: image.base64 }));
  if (rows.length > 0) await ctx.db.insert(integrationAssets).values(rows);
}

/** An integration the caller may see; NotFound otherwise. */
export async function getIntegration(ctx: Ctx, name: string): Promise<Integration> {
  const grant = await visibleIntegration(ctx, name);
  return toIntegration(ctx, grant.row, grant);
}

/** Removes the integration with its installations, events, script and images; nothing when missing or not visible. */
export async function unpublishIntegration(ctx: Ctx, name: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const grant = await readIntegration(tx, name, true);
    if (!grant || !canSee(grant)) return;
    if (!isOwnerAdmin(grant)) throw new Forbidden(`You need the admin role in the organization that owns the integration ${name}`);
    await tx.db.delete(integrations).where(eq(integrations.name, name));
  });
}

/** Sets where the events of the integration are delivered, and whether other organizations' events go there too. */
export async function setDevelopmentMode(ctx: Ctx, name: string, body: DevModeBody): Promise<void> {
  // Events are POSTed over HTTP: other schemes (file:, data:, …) could never receive them.
  if (!/^https?:$/.test(new URL(body.tunnelUrl).protocol)) throw new BadRequest('Invalid request: body.tunnelUrl: must be an http or https URL');
  await administeredIntegration(ctx, name);
  await ctx.db
    .update(integrations)
    .set({ devTunnelUrl: body.tunnelUrl, devAll: body.all, updatedAt: ctx.now() })
    .where(eq(integrations.name, name));
}

/** Ends the development mode: events and requests go to the script again; nothing when missing or not visible. */
export async function disableDevelopmentMode(ctx: Ctx, name: string): Promise<void> {
  const grant = await readIntegration(ctx, name);
  if (!grant || !canSee(grant)) return;
  if (!isOwnerAdmin(grant)) throw new Forbidden(`You need the admin role in the organization that owns the integration ${name}`);
  if (grant.row.devTunnelUrl === null && !grant.row.devAll) return;
  await ctx.db.update(integrations).set({ devTunnelUrl: null, devAll: false, updatedAt: ctx.now() }).where(eq(integrations.name, name));
}

/** Whether a JSON array column has items (`wanted`) or none: the value written in the SQL, as PGlite refuses boolean parameters in prepared statements. */
function hasItems(column: PgColumn, wanted: boolean): SQL {
  return wanted ? sql`jsonb_array_length(${column}) > 0` : sql`jsonb_array_length(${column}) = 0`;
}

/** The list filters as SQL conditions (they combine). */
function filters(query: ListQuery): (SQL | undefined)[] {
  const text = (value: string) => sql`${value}::text`;
  return [
    query.search !== undefined
      ? sql`(strpos(lower(${integrations.name}), lower(${text(query.search)})) > 0 OR strpos(lower(${integrations.title}), lower(${text(query.search)})) > 0)`
      : undefined,
    query.category !== undefined ? sql`${text(query.category)} = ANY(${integrations.categories})` : undefined,
    // A block domain matches its own host and the hosts under it (docs.acme.com matches acme.com).
    query.blockDomain !== undefined
      ? sql`EXISTS (SELECT 1 FROM unnest(${integrations.blockDomains}) AS d(host) WHERE d.host = lower(${text(query.blockDomain)}) OR right(d.host, length(${text(query.blockDomain)}) + 1) = '.' || lower(${text(query.blockDomain)}))`
      : undefined,
    query.blocks !== undefined ? hasItems(integrations.blocks, query.blocks) : undefined,
    query.contentSources !== undefined ? hasItems(integrations.contentSources, query.contentSources) : undefined,
    query.owner !== undefined ? eq(integrations.organizationId, query.owner) : undefined,
    query.scope !== undefined ? sql`${text(query.scope)} = ANY(${integrations.scopes})` : undefined,
    // Installable on a target: integrations for that target and those for every target.
    query.target !== undefined ? or(eq(integrations.target, query.target), eq(integrations.target, 'all')) : undefined,
  ];
}

/** The integrations the caller can see (public ones, and all of the organizations it belongs to), by name, with their owners: one statement. */
export async function listIntegrations(ctx: Ctx, query: ListQuery) {
  // Qualified by hand, as the columns of the outer row inside subqueries.
  const membership = sql`FROM members AS m WHERE m.organization_id = "integrations"."organization_id" AND m.user_id = ${ctx.caller.userId} AND NOT m.disabled`;
  const memberRole = sql<string | null>`(SELECT m.role ${membership})`;
  const isMember = sql<boolean>`EXISTS (SELECT 1 ${membership})`;
  const where = and(or(eq(integrations.visibility, 'public'), isMember), ...filters(query));
  const selects = keysetPageSelects(ctx.db, integrations, where, [integrations.name], query, { memberRole, isMember });
  const owners = ctx.db
    .select()
    .from(organizations)
    .where(inArray(organizations.id, sql`(SELECT p.organization_id FROM ${selects.rows} p)`));
  const attached = await readAttached(ctx.db, attachAll('integrations', attachListPage('integrations', selects), attachSelect('integration_owners', owners)));
  const page = await readKeysetPage(attached, 'integrations', selects);
  const byId = new Map((page.rows.length > 0 ? await rowsOf(attached, 'integration_owners', owners) : []).map((o) => [o.id, o]));
  return listBody(page, (row) =>
    toIntegration(ctx, row, { owner: byId.get(row.organizationId)!, role: asRole(row.memberRole), isMember: row.isMember === true }),
  );
}
