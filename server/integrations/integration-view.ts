// The API forms of integrations and installations, mapped explicitly from their rows.
import type { components } from '../../generated/types.js';
import type { OrganizationRow } from '../auth/access.js';
import { atLeast, organizationPermissions, type Role } from '../auth/roles.js';
import type { Ctx } from '../context.js';
import type { integrationInstallations, integrations } from '../db/schema/index.js';
import { toOrganization } from '../organizations/organizations.store.js';

export type Integration = components['schemas']['Integration'];
export type Installation = components['schemas']['IntegrationInstallation'];
/** What the views need of a Ctx: the URL builder (a script's environment is built without a request). */
type UrlsOnly = Pick<Ctx, 'urls'>;
export type IntegrationRow = typeof integrations.$inferSelect;
export type InstallationRow = typeof integrationInstallations.$inferSelect;

/** The caller's standing in the owning organization of an integration. */
export interface OwnerMembership {
  owner: OrganizationRow;
  /** The caller's role there (null: guest or not a member). */
  role: Role | null;
  isMember: boolean;
}

/**
 * The `Content-Security-Policy` header value of an integration's contentSecurityPolicy (a string, or
 * sources by directive), sent with its public endpoint's answers and listed with a published site's scripts.
 */
export function cspHeader(policy: unknown): string | undefined {
  if (typeof policy === 'string') return policy.trim() || undefined;
  if (!policy || typeof policy !== 'object') return undefined;
  const parts = Object.entries(policy as Record<string, unknown>)
    .filter(([, sources]) => typeof sources === 'string')
    .map(([directive, sources]) => `${directive} ${sources as string}`.trim());
  return parts.length ? parts.join('; ') : undefined;
}

/** Where an image of the integration is served (GET /v1/integrations/{name}/assets/{file}). */
export function assetUrl(ctx: UrlsOnly, name: string, file: string): string {
  return ctx.urls.api(`/integrations/${encodeURIComponent(name)}/assets/${encodeURIComponent(file)}`);
}

/**
 * The public endpoints (served outside /v1, without a token, by public-endpoint.route.ts): requests there
 * go to the integration's script as fetch events. The `/integration` segment ends the endpoint's own
 * path; what follows it is the path the script sees.
 */
export function integrationEndpointPath(name: string): string {
  return `/integrations/${encodeURIComponent(name)}/integration`;
}
export function installationEndpointPath(name: string, installationId: string): string {
  return `/integrations/${encodeURIComponent(name)}/installations/${encodeURIComponent(installationId)}/integration`;
}
export function targetEndpointPath(name: string, installationId: string, kind: 'space' | 'site', targetId: string): string {
  return `/integrations/${encodeURIComponent(name)}/installations/${encodeURIComponent(installationId)}/${kind}s/${encodeURIComponent(targetId)}/integration`;
}

/**
 * Where a published site loads an integration's script (served outside /v1, without a token, by
 * published-script.route.ts through the script's `fetch_published_script`).
 */
export function publishedScriptPath(name: string, installationId: string, siteId: string): string {
  return `/integrations/${encodeURIComponent(name)}/installations/${encodeURIComponent(installationId)}/sites/${encodeURIComponent(siteId)}/script.js`;
}

/** The API form of an integration, its owner and permissions seen by the caller; never its script or secrets. */
export function toIntegration(ctx: UrlsOnly, row: IntegrationRow, membership: OwnerMembership): Integration {
  const name = encodeURIComponent(row.name);
  const { owner, role, isMember } = membership;
  return {
    object: 'integration',
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    ...(row.summary !== null && { summary: row.summary }),
    previewImages: row.previewFiles.map((file) => assetUrl(ctx, row.name, file)),
    target: row.target as Integration['target'],
    verified: row.verified,
    visibility: row.visibility as Integration['visibility'],
    scopes: row.scopes as Integration['scopes'],
    categories: row.categories as Integration['categories'],
    blocks: row.blocks as Integration['blocks'],
    contentSources: row.contentSources as Integration['contentSources'],
    configurations: row.configurations as Integration['configurations'],
    externalLinks: row.externalLinks as Integration['externalLinks'],
    // The owner as the caller sees it: a caller outside it gets no permission there.
    owner: { ...toOrganization(owner, role, ctx.urls), permissions: organizationPermissions(role, isMember) },
    urls: {
      location: ctx.urls.api(`/integrations/${name}`),
      ...(row.iconFile && { icon: assetUrl(ctx, row.name, row.iconFile) }),
      app: ctx.urls.app(`/integrations/${name}`),
      assets: ctx.urls.api(`/integrations/${name}/assets`),
      publicEndpoint: ctx.urls.root(integrationEndpointPath(row.name)),
      // No separate origin for rendered content: a published page frames it sandboxed (an opaque origin).
      publicContentEndpoint: ctx.urls.root(integrationEndpointPath(row.name)),
    },
    permissions: { admin: isMember && atLeast(role, 'admin') },
    ...(row.contentSecurityPolicy != null && { contentSecurityPolicy: row.contentSecurityPolicy as Integration['contentSecurityPolicy'] }),
  };
}

/** The API form of an installation; `spaces` is the number of spaces it is installed on. */
export function toInstallation(ctx: UrlsOnly, row: InstallationRow, spaces: number): Installation {
  const name = encodeURIComponent(row.integrationName);
  return {
    object: 'integration-installation',
    id: row.id,
    status: row.status as Installation['status'],
    space_selection: row.spaceSelection as Installation['space_selection'],
    site_selection: row.siteSelection as Installation['site_selection'],
    spaces,
    configuration: row.configuration,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    urls: {
      location: ctx.urls.api(`/integrations/${name}/installations/${row.id}`),
      app: ctx.urls.app(`/o/${row.organizationId}/integrations/${name}`),
      publicEndpoint: ctx.urls.root(installationEndpointPath(row.integrationName, row.id)),
      // No separate origin for rendered content here: GitBook's API says it then equals publicEndpoint.
      publicContentEndpoint: ctx.urls.root(installationEndpointPath(row.integrationName, row.id)),
    },
    externalIds: row.externalIds,
    target: { organization: row.organizationId },
  };
}
