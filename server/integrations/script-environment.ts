// The `environment` a script built on GitBook's runtime (`runtime: v2`) receives with every event, fetch and
// published-script request: the public `IntegrationEnvironment` shape, from which `@gitbook/runtime` makes
// its context (`context.environment`, and `context.api`, a client of this API authenticated with
// `apiTokens.installation ?? apiTokens.integration`):
//   integration        the Integration, as the API shows it (its owner seen from outside: no permission)
//   installation       the installation concerned, as the API shows it (with its `configuration`)
//   spaceInstallation  / siteInstallation: its installation on the space or site concerned, when there is one
//   secrets            the integration's secrets
//   signingSecrets     { integration, installation, spaceInstallation, siteInstallation }: generated for the
//                      integration and derived for each installation and space or site installation
//                      (signing-secrets.ts), never what the publisher gave; the site installation of the
//                      integration that signs the site's visitors in (`backend: integration`, scope
//                      `site:visitor:auth`: visitor-auth.ts) gets the site's visitor key (HS256) instead
//   apiEndpoint        this server's public URL: the runtime's client appends `/v1` itself
//   apiTokens          { integration, installation }: a short-lived token of the integration itself (one
//                      hour: server/auth/integration-tokens.ts; `context.integration.api`, which acts on the
//                      integration and its installations), and one of the installation concerned, when any,
//                      as createIntegrationInstallationToken makes (`context.api`)
//   network            { proxy: false }: a script's fetch goes out from this server, not through a proxy
import type { components } from '../../generated/types.js';
import type { OrganizationRow } from '../auth/access.js';
import type { Urls } from '../urls.js';
import type { integrationSiteInstallations, integrationSpaceInstallations } from '../db/schema/index.js';
import { targetEndpointPath, toInstallation, toIntegration, type InstallationRow, type IntegrationRow } from './integration-view.js';
import { signingSecrets, type SigningSecrets } from './signing-secrets.js';

type SpaceInstallationRow = typeof integrationSpaceInstallations.$inferSelect;
type SiteInstallationRow = typeof integrationSiteInstallations.$inferSelect;

export interface EnvironmentRows {
  /** The integration as integrationView shows it, when the caller made it already (it keeps it per row). */
  integrationView?: IntegrationEnvironment['integration'];
  integration: IntegrationRow;
  owner: OrganizationRow;
  secrets: Record<string, string>;
  installation: InstallationRow | null;
  spaces: number;
  spaceInstallation: SpaceInstallationRow | null;
  siteInstallation: SiteInstallationRow | null;
  token: string | undefined;
  /** The token of the integration itself (apiTokens.integration). */
  integrationToken: string;
  /** The integration's signing secret (signing-secrets.ts), the others' root. */
  signingSecret: string;
  /** The site's visitor key, when the request concerns the installation that signs the site's visitors in. */
  siteVisitorKey?: string;
}

export interface IntegrationEnvironment {
  integration: components['schemas']['Integration'];
  installation?: components['schemas']['IntegrationInstallation'];
  spaceInstallation?: ReturnType<typeof targetInstallation> & { space: string };
  siteInstallation?: ReturnType<typeof targetInstallation> & { site: string };
  secrets: Record<string, string>;
  signingSecrets: SigningSecrets;
  apiEndpoint: string;
  apiTokens: { integration: string; installation?: string };
  network: { proxy: boolean };
}

/** An installation on a space or site as the environment shows it (IntegrationContentInstallationBase). */
function targetInstallation(urls: Urls, row: SpaceInstallationRow | SiteInstallationRow, kind: 'space' | 'site', targetId: string) {
  const endpoint = urls.root(targetEndpointPath(row.integrationName, row.installationId, kind, targetId));
  return {
    integration: row.integrationName,
    installation: row.installationId,
    status: row.status,
    configuration: row.configuration,
    externalIds: row.externalIds,
    urls: {
      location: urls.api(`/integrations/${encodeURIComponent(row.integrationName)}/installations/${row.installationId}/${kind}s/${targetId}`),
      publicEndpoint: endpoint,
      // No separate origin for rendered content here: the public API says it then equals publicEndpoint.
      publicContentEndpoint: endpoint,
    },
  };
}

/** The integration as the environment shows it: as the API does, its owner seen from outside (no permission). */
export function integrationView(urls: Urls, integration: IntegrationRow, owner: OrganizationRow): IntegrationEnvironment['integration'] {
  return toIntegration({ urls }, integration, { owner, role: null, isMember: false }) as IntegrationEnvironment['integration'];
}

/** The installation as the environment shows it: as the API does. */
function installationView(ctx: { urls: Urls }, row: InstallationRow, spaces: number): IntegrationEnvironment['installation'] {
  return toInstallation(ctx, row, spaces) as IntegrationEnvironment['installation'];
}

/** The IntegrationEnvironment of a request about the rows' installation (and space or site installation). */
export function integrationEnvironment(urls: Urls, rows: EnvironmentRows): IntegrationEnvironment {
  const ctx = { urls };
  const environment: IntegrationEnvironment = {
    integration: rows.integrationView ?? integrationView(urls, rows.integration, rows.owner),
    secrets: rows.secrets,
    signingSecrets: signingSecrets(rows.signingSecret, {
      installationId: rows.installation?.id,
      spaceId: rows.spaceInstallation?.spaceId,
      siteId: rows.siteInstallation?.siteId,
      siteVisitorKey: rows.siteVisitorKey,
    }),
    // @gitbook/runtime's client appends `/v1` itself: the API's URL without it (a host mounting the API for
    // such scripts mounts it at a path ending in /v1, docs/mounting.md).
    apiEndpoint: urls.api('').replace(/\/v1$/, ''),
    apiTokens: { integration: rows.integrationToken, ...(rows.token && { installation: rows.token }) },
    network: { proxy: false },
  };
  if (rows.installation) environment.installation = installationView(ctx, rows.installation, rows.spaces);
  if (rows.spaceInstallation) {
    const row = rows.spaceInstallation;
    environment.spaceInstallation = { ...targetInstallation(urls, row, 'space', row.spaceId), space: row.spaceId };
  }
  if (rows.siteInstallation) {
    const row = rows.siteInstallation;
    environment.siteInstallation = { ...targetInstallation(urls, row, 'site', row.siteId), site: row.siteId };
  }
  return environment;
}
