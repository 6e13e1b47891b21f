// renderIntegrationUIWithPost: the caller's right to the context (a document's space, a configuration screen's
// organization, space or site), the installation of the integration there, and its component run (ui-render.ts).
// One statement, the grant's of the context's space or organization, or of a site's organization for a site's
// screen (server/auth/attached-read.ts): the integration, the installation covering the context and the script's
// row (loadScriptTarget's) are read in it, and the credentials the script's environment carries that this process
// does not hold are written in it, only for a caller the rule lets through who may see the integration. The
// installation is told only once the caller's right to the context is checked.
import { and, eq, exists, or } from 'drizzle-orm';
import type { Access } from '../../contract/access.js';
import { checkAccess, RefusedGrant, siteOrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { attachAll, attachSelect, rowsOf, selectFragment } from '../db/attached-select.js';
import { sqlText } from '../db/sql-text.js';
import type { Db } from '../db/client.js';
import { integrationInstallations, integrationSiteInstallations, integrationSpaceInstallations, sites, spaces } from '../db/schema/index.js';
import { ApiError, BadRequest, NotFound } from '../errors.js';
import { canSeeSql, visibleIntegrationAttached } from './integration-access.js';
import { sandboxRunner, scriptTargetAttached, type ScriptTarget } from './script-invocation.js';
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
      return { installation: installationOnSiteSelect(db, name, context.siteId) };
    case 'configuration_account':
      return { installation: activeInstallationSelect(db, name, eq(installations.organizationId, context.organizationId)) };
  }
}

type ContextSelects = ReturnType<typeof contextSelects>;

/** What the context concerns (the target of its script's event) and how the answers name it. */
function targetOfContext(context: Context, at: string) {
  switch (context.type) {
    case 'document':
    case 'configuration_space':
      return { spaceId: context.spaceId, where: `space ${context.spaceId} (${at}.context.spaceId)` };
    case 'configuration_site':
      return { siteId: context.siteId, where: `site ${context.siteId} (${at}.context.siteId)` };
    case 'configuration_account':
      return { where: `organization ${context.organizationId} (${at}.context.organizationId)` };
  }
}

/** The access rule of a context whose space or organization the request names: a document's space read, a configuration screen's space or organization administered. */
function ruleOf(context: Exclude<Context, { type: 'configuration_site' }>): { access: Access; params: Record<string, string> } {
  switch (context.type) {
    case 'document':
      return { access: { to: 'space', role: 'read' }, params: { spaceId: context.spaceId } };
    case 'configuration_space':
      return { access: { to: 'space', role: 'admin' }, params: { spaceId: context.spaceId } };
    case 'configuration_account':
      return { access: { to: 'organization', role: 'admin' }, params: { organizationId: context.organizationId } };
  }
}

/**
 * The installation and its script's row (loadScriptTarget's) read in the statement of the grant of the context
 * (its space's or organization's; a site's screen, its site's organization's) with the integration: one statement.
 * The answers come in the order they did when each was read apart: for a site's screen, the integration (404)
 * first, then the site (404), then the organization (404, 403); otherwise a space or organization the caller
 * cannot see is not found whatever the integration, and an integration they cannot see is not found before
 * they are refused the context (403).
 */
async function readInGrant(ctx: Ctx, name: string, context: Context, selects: ContextSelects, target: Omit<ScriptTarget, 'installationId'>, at: string) {
  const integration = visibleIntegrationAttached(ctx, name);
  const script = scriptTargetAttached(name, target, sqlText`(${selectFragment(selects.installation)})`, canSeeSql(ctx, name));
  const read = { ...attachAll('ui_render', integration.read, attachSelect('ui_installation', selects.installation), script.read), write: script.read.write };
  let attached: Record<string, unknown>;
  if (context.type === 'configuration_site') {
    const found = await siteOrganizationGrant(ctx, context.siteId, 'admin', read);
    integration.visible(found.attached);
    if (!found.grant) throw new NotFound(`${at}.context.siteId: site ${context.siteId} not found`);
    attached = found.grant().attached!;
  } else {
    const rule = ruleOf(context);
    try {
      const decision = await checkAccess(ctx, rule.access, rule.params, { spaceCounters: false, attach: read });
      attached = (decision as { grant: { attached?: Record<string, unknown> } }).grant.attached!;
    } catch (err) {
      if (err instanceof RefusedGrant && err.attached) integration.visible(err.attached);
      throw err;
    }
    integration.visible(attached);
  }
  const [installation] = await rowsOf(attached, 'ui_installation', selects.installation);
  return { installation, preread: script.preread(attached) };
}

/**
 * The component's render output and cache; NotFound when not installed, 400 when the script refuses (naming
 * `<at>.componentId`: `body` for the POST, `query.request` for the GET), 503 when it fails.
 */
export async function renderIntegrationUi(ctx: Ctx, name: string, body: Omit<UiRenderInput, 'userId' | 'context'> & { context: Context }, at = 'body') {
  const { context } = body;
  const selects = contextSelects(ctx.db, name, context);
  const { where, ...target } = targetOfContext(context, at);
  const { installation, preread } = await readInGrant(ctx, name, context, selects, target, at);
  if (!installation) throw new NotFound(`The integration ${name} is not installed on the ${where}`);
  const installationId = installation.id;
  const result = await renderComponent(ctx.db, name, { installationId, ...target }, { ...body, userId: ctx.caller.userId }, sandboxRunner, preread);
  if (result.ok) return result;
  if (result.status === 404 && result.reason.includes('not installed')) throw new NotFound(result.reason);
  if (result.status >= 400 && result.status < 500) throw new BadRequest(`${at}.componentId: ${result.reason}`);
  // Another attempt may succeed (a script's failure may be passing): the answer says when to retry.
  throw new ApiError(503, `The integration could not render the component: ${result.reason}`, { 'Retry-After': '5' });
}
