// renderIntegrationUIWithPost: the caller's right to the context (a document's space, a configuration screen's
// organization, space or site), the installation of the integration there, and its component run (ui-render.ts).
import { eq } from 'drizzle-orm';
import { checkAccess } from '../auth/access.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { sites } from '../db/schema/index.js';
import { runSql, sqlText } from '../db/sql-text.js';
import { ApiError, BadRequest, NotFound } from '../errors.js';
import { visibleIntegration } from './integration-access.js';
import { renderComponent, type UiRenderInput } from './ui-render.js';

type Context =
  | { type: 'document'; spaceId: string; editable: boolean; theme: string }
  | { type: 'configuration_account'; organizationId: string; theme: string }
  | { type: 'configuration_space'; spaceId: string; theme: string }
  | { type: 'configuration_site'; siteId: string; theme: string };

/** The active installation of integration `name` covering space `spaceId` (on it, or on every space of its organization). */
export async function installationOnSpace(db: Db, name: string, spaceId: string): Promise<string | undefined> {
  const [row] = await runSql(
    db,
    sqlText`SELECT i.id FROM integration_installations i JOIN spaces sp ON sp.id = ${spaceId}::text
      WHERE i.integration_name = ${name}::text AND i.status = 'active' AND i.organization_id = sp.organization_id
        AND (i.space_selection = 'all' OR EXISTS (SELECT 1 FROM integration_space_installations x WHERE x.installation_id = i.id AND x.space_id = sp.id))
      ORDER BY i.id LIMIT 1`,
  );
  return (row?.id as string | undefined) ?? undefined;
}

/** The active installation of integration `name` covering site `siteId`. */
async function installationOnSite(db: Db, name: string, siteId: string): Promise<string | undefined> {
  const [row] = await runSql(
    db,
    sqlText`SELECT i.id FROM integration_installations i JOIN sites st ON st.id = ${siteId}::text
      WHERE i.integration_name = ${name}::text AND i.status = 'active' AND i.organization_id = st.organization_id
        AND (i.site_selection = 'all' OR EXISTS (SELECT 1 FROM integration_site_installations x WHERE x.installation_id = i.id AND x.site_id = st.id))
      ORDER BY i.id LIMIT 1`,
  );
  return (row?.id as string | undefined) ?? undefined;
}

/** The active installation of integration `name` in organization `organizationId`. */
async function installationIn(db: Db, name: string, organizationId: string): Promise<string | undefined> {
  const [row] = await runSql(
    db,
    sqlText`SELECT id FROM integration_installations WHERE integration_name = ${name}::text AND organization_id = ${organizationId}::text AND status = 'active' ORDER BY id LIMIT 1`,
  );
  return (row?.id as string | undefined) ?? undefined;
}

/** The installation (and space or site) the context concerns, once the caller's right to it is checked. */
async function targetOf(ctx: Ctx, name: string, context: Context, at: string) {
  switch (context.type) {
    case 'document':
    case 'configuration_space': {
      await checkAccess(ctx, { to: 'space', role: context.type === 'document' ? 'read' : 'admin' }, { spaceId: context.spaceId }, { spaceCounters: false });
      return { installationId: await installationOnSpace(ctx.db, name, context.spaceId), spaceId: context.spaceId, where: `space ${context.spaceId} (${at}.context.spaceId)` };
    }
    case 'configuration_site': {
      const [site] = await ctx.db.select({ organizationId: sites.organizationId }).from(sites).where(eq(sites.id, context.siteId));
      if (!site) throw new NotFound(`${at}.context.siteId: site ${context.siteId} not found`);
      await checkAccess(ctx, { to: 'organization', role: 'admin' }, { organizationId: site.organizationId });
      return { installationId: await installationOnSite(ctx.db, name, context.siteId), siteId: context.siteId, where: `site ${context.siteId} (${at}.context.siteId)` };
    }
    case 'configuration_account': {
      await checkAccess(ctx, { to: 'organization', role: 'admin' }, { organizationId: context.organizationId });
      return { installationId: await installationIn(ctx.db, name, context.organizationId), where: `organization ${context.organizationId} (${at}.context.organizationId)` };
    }
  }
}

/**
 * The component's render output and cache; NotFound when not installed, 400 when the script refuses (naming
 * `<at>.componentId`: `body` for the POST, `query.request` for the GET), 503 when it fails.
 */
export async function renderIntegrationUi(ctx: Ctx, name: string, body: Omit<UiRenderInput, 'userId' | 'context'> & { context: Context }, at = 'body') {
  await visibleIntegration(ctx, name);
  const { installationId, where, ...target } = await targetOf(ctx, name, body.context, at);
  if (!installationId) throw new NotFound(`The integration ${name} is not installed on the ${where}`);
  const result = await renderComponent(ctx.db, name, { installationId, ...target }, { ...body, userId: ctx.caller.userId });
  if (result.ok) return result;
  if (result.status === 404 && result.reason.includes('not installed')) throw new NotFound(result.reason);
  if (result.status >= 400 && result.status < 500) throw new BadRequest(`${at}.componentId: ${result.reason}`);
  // Another attempt may succeed (a script's failure may be passing): the answer says when to retry.
  throw new ApiError(503, `The integration could not render the component: ${result.reason}`, { 'Retry-After': '5' });
}
