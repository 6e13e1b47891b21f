// renderIntegrationUIWithPost: the caller's right to the context (a document's space, a configuration screen's
// organization, space or site), the installation of the integration there, and its component run (ui-render.ts).
// The installation (and a site's organization) is read with the integration, in one statement, and told only
// once the caller's right to the context is checked.
import { and, eq, exists, or } from 'drizzle-orm';
import { checkAccess } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { attachAll, attachSelect, rowsOf, type AttachedRead } from '../db/attached-select.js';
import type { Db } from '../db/client.js';
import { integrationInstallations, integrationSiteInstallations, integrationSpaceInstallations, sites, spaces } from '../db/schema/index.js';
import { ApiError, BadRequest, NotFound } from '../errors.js';
import { visibleIntegrationWith } from './integration-access.js';
import { renderComponent, type UiRenderInput } from './ui-render.js';

type Context =
  | { type: 'document'; spaceId: string; editable: boolean; theme: string }
  | { type: 'configuration_account'; organizationId: string; theme: string }
  | { type: 'configuration_space'; spaceId: string; theme: string }
  | { type: 'configuration_site'; siteId: string; theme: string };

const installations = integrationInstallations;

/** The active installations of integration `name` meeting `condition`, first by id: the one a render is for is the first. */
function activeInstallationSelect(db: Db, name: string, condition: ReturnType<typeof and>) {
  return db.select({ id: installations.id }).from(installations).where(and(eq(installations.integrationName, name), eq(installations.status, 'active'), condition)).orderBy(installations.id).limit(1);
}

/** The active installation of integration `name` covering space `spaceId` (on it, or on every space of its organization). */
function installationOnSpaceSelect(db: Db, name: string, spaceId: string) {
  const installedOn = db.select({ id: integrationSpaceInstallations.id }).from(integrationSpaceInstallations)
    .where(and(eq(integrationSpaceInstallations.installationId, installations.id), eq(integrationSpaceInstallations.spaceId, spaceId)));
  const spaceOf = db.select({ id: spaces.id }).from(spaces).where(and(eq(spaces.id, spaceId), eq(spaces.organizationId, installations.organizationId)));
  return activeInstallationSelect(db, name, and(exists(spaceOf), or(eq(installations.spaceSelection, 'all'), exists(installedOn))));
}

/** The active installation of integration `name` covering space `spaceId`, read now. */
export async function installationOnSpace(db: Db, name: string, spaceId: string): Promise<string | undefined> {
  return (await installationOnSpaceSelect(db, name, spaceId))[0]?.id;
}

/** The active installation of integration `name` covering site `siteId`. */
function installationOnSiteSelect(db: Db, name: string, siteId: string) {
  const installedOn = db.select({ id: integrationSiteInstallations.id }).from(integrationSiteInstallations)
    .where(and(eq(integrationSiteInstallations.installationId, installations.id), eq(integrationSiteInstallations.siteId, siteId)));
  const siteOf = db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, siteId), eq(sites.organizationId, installations.organizationId)));
  return activeInstallationSelect(db, name, and(exists(siteOf), or(eq(installations.siteSelection, 'all'), exists(installedOn))));
}

/**
 * What a render reads of its context, with its integration (one statement): the installation that covers
 * the context (on its space or site, in its organization), and a site's organization for a site's screen.
 */
function contextSelects(db: Db, name: string, context: Context) {
  switch (context.type) {
    case 'document':
    case 'configuration_space':
      return { installation: installationOnSpaceSelect(db, name, context.spaceId) };
    case 'configuration_site':
      return {
        installation: installationOnSiteSelect(db, name, context.siteId),
        site: db.select({ organizationId: sites.organizationId }).from(sites).where(eq(sites.id, context.siteId)),
      };
    case 'configuration_account':
      return { installation: activeInstallationSelect(db, name, eq(installations.organizationId, context.organizationId)) };
  }
}

type ContextSelects = ReturnType<typeof contextSelects>;

function contextRead(selects: ContextSelects): AttachedRead {
  const installation = attachSelect('ui_installation', selects.installation);
  return selects.site ? attachAll('ui_context', installation, attachSelect('ui_site', selects.site)) : installation;
}

/** The space or site the context concerns, once the caller's right to it is checked (a site's organization from `attached`). */
async function targetOf(ctx: Ctx, context: Context, at: string, selects: ContextSelects, attached: Record<string, unknown>) {
  switch (context.type) {
    case 'document':
    case 'configuration_space': {
      await checkAccess(ctx, { to: 'space', role: context.type === 'document' ? 'read' : 'admin' }, { spaceId: context.spaceId }, { spaceCounters: false });
      return { spaceId: context.spaceId, where: `space ${context.spaceId} (${at}.context.spaceId)` };
    }
    case 'configuration_site': {
      const [site] = selects.site ? await rowsOf(attached, 'ui_site', selects.site) : [];
      if (!site) throw new NotFound(`${at}.context.siteId: site ${context.siteId} not found`);
      await checkAccess(ctx, { to: 'organization', role: 'admin' }, { organizationId: site.organizationId });
      return { siteId: context.siteId, where: `site ${context.siteId} (${at}.context.siteId)` };
    }
    case 'configuration_account': {
      await checkAccess(ctx, { to: 'organization', role: 'admin' }, { organizationId: context.organizationId });
      return { where: `organization ${context.organizationId} (${at}.context.organizationId)` };
    }
  }
}

/**
 * The component's render output and cache; NotFound when not installed, 400 when the script refuses (naming
 * `<at>.componentId`: `body` for the POST, `query.request` for the GET), 503 when it fails.
 */
export async function renderIntegrationUi(ctx: Ctx, name: string, body: Omit<UiRenderInput, 'userId' | 'context'> & { context: Context }, at = 'body') {
  const selects = contextSelects(ctx.db, name, body.context);
  const { attached } = await visibleIntegrationWith(ctx, name, contextRead(selects));
  const { where, ...target } = await targetOf(ctx, body.context, at, selects, attached);
  const [installation] = await rowsOf(attached, 'ui_installation', selects.installation);
  if (!installation) throw new NotFound(`The integration ${name} is not installed on the ${where}`);
  const installationId = installation.id;
  const result = await renderComponent(ctx.db, name, { installationId, ...target }, { ...body, userId: ctx.caller.userId });
  if (result.ok) return result;
  if (result.status === 404 && result.reason.includes('not installed')) throw new NotFound(result.reason);
  if (result.status >= 400 && result.status < 500) throw new BadRequest(`${at}.componentId: ${result.reason}`);
  // Another attempt may succeed (a script's failure may be passing): the answer says when to retry.
  throw new ApiError(503, `The integration could not render the component: ${result.reason}`, { 'Retry-After': '5' });
}
