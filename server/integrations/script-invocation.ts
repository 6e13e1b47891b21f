// Runs an integration's published script for one request (an event delivery or a request to a public
// endpoint): reads the script, its secrets and the configurations of the installation concerned, builds
// what the script is given, and hands the request to the sandboxed runtime (server/runtime/). A `v2`
// script gets an IntegrationEnvironment in GitBook's dispatch protocol (script-environment.ts,
// dispatch-protocol.ts); a `v1` script gets the `env` below as the second argument of its fetch.
//
// `env` of a `v1` script:
//   secrets          the integration's secrets, by name (also what the publisher gave in `secrets`)
//   installationId   the installation concerned, when any
//   configuration    that installation's configuration ({} when none)
//   spaceId / siteId and spaceConfiguration / siteConfiguration, when the request concerns one
//   integration      { name, version }
//   apiEndpoint      where to call this API back (`<PUBLIC_URL>/v1`)
//   apiTokens        { installation }: a token of the installation concerned (createIntegrationInstallationToken),
//                    when there is one; a script calls the API with it within the integration's scopes
//   signingSecrets   { siteInstallation }: the site's visitor key, as in a `v2` environment (below), when given
//
// Both forms carry the site's visitor key (`signingSecrets.siteInstallation`) only to the integration that signs
// the site's visitors in: a request about its installation on a site whose publishing auth has
// `backend: integration`, by an integration with the `site:visitor:auth` scope (visitor-auth.ts).
import { fragmentRead, type AttachedRead } from '../db/attached-select.js';
import { tableRow, type Db } from '../db/client.js';
import { integrationInstallations, integrationScripts, integrationSiteInstallations, integrations, integrationSpaceInstallations, organizations } from '../db/schema/index.js';
import type { OrganizationRow } from '../auth/access.js';
import { columnsAs, rawSql, runSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import type { Urls } from '../urls.js';
import { visitorKey } from '../sites/publishing-auth.js';
import { credentialsWrite, scriptCredentials, type GivenCredentials } from './script-credentials.js';
import { LRUCache } from 'lru-cache';
import { scriptApiEndpoint, scriptHash, scriptUrls, sharedScriptRuntime, type ScriptRequest, type ScriptResponse } from '../runtime/script-runtime.js';
import type { InstallationRow, IntegrationRow } from './integration-view.js';
import { integrationEnvironment, integrationView, type IntegrationEnvironment } from './script-environment.js';
import { VISITOR_AUTH_SCOPE } from './visitor-auth.js';

export interface ScriptTarget {
  installationId?: string;
  spaceId?: string;
  siteId?: string;
}

/** What runs the script: the sandboxed runtime by default; tests may pass their own. */
export type ScriptRunner = (options: { key: string; script: string; scriptHash?: string; request: ScriptRequest; env: Record<string, unknown> }) => Promise<ScriptResponse>;

type SiteInstallationRow = typeof integrationSiteInstallations.$inferSelect;
type SpaceInstallationRow = typeof integrationSpaceInstallations.$inferSelect;

export const sandboxRunner: ScriptRunner = (options) => sharedScriptRuntime().invoke(options);

// What a request about `target` reads, in one statement (prepared once per database): the integration with
// its owner, its script, and the installation and its space or site installation named in the path (null
// when they do not exist). The public endpoint's requests once made three statements here besides the path
// check, and the database's thread was the bottleneck of the endpoint (bench/results/script-runtime.md).
// Nothing is kept between requests but the script's text (below), which is immutable per hash: a change (a
// new script, a configuration, an uninstall) applies to the next request, in every process.
//
// The script's text (often 100 KB or more: a bundle of @gitbook/runtime) is read only when this process does
// not hold the text of the script's current hash: reading it at every request kept the database's thread
// busy decoding it (bench/results/script-runtime.md). The statement is given the hash held, and answers the
// text only when the stored one differs.
//
// An installation with `site_selection: all` covers every site of its organization, without an installation
// on each: a request about such a site (its public endpoint, published script or visitor authentication) is
// about that installation, as if it had one there (coveredSite below). The same for `space_selection: all`
// and every live space of its organization (an event about the space, its public endpoint: coveredSpace).
//
// The integration with its owner, and the installation, are read in full only when they changed: every
// statement answers their stamps (md5 of the rows' text, computed in the database from the rows as stored,
// so any change of any column changes them), and when this process holds rows with those stamps it runs the
// slim statement, without their columns; otherwise (or when a stamp differs from the one held) the full one.
// The rows of every table at each request (some 90 columns, 6.5 KB) kept the database's thread busy parsing
// and copying them (bench/results/script-runtime.md).
//
// Plain SQL run straight on the driver (server/db/sql-text.ts), not Drizzle's prepared query: on PGlite that
// one was parsed and planned at each request (the planner reading the size of each of its seven tables),
// which kept the database thread busy all the time under load; this one is PREPAREd once and only executed.
function targetRow(db: Db, name: string, target: ScriptTarget, heldScript: string | null, full: boolean) {
  return runSql(db, targetRowSql(name, target, heldScript, full));
}

/**
 * targetRow's SQL; the installation's id is `installation` (SQL) when given, else `target`'s. When given (a
 * read attached to another statement, which cannot be sent again when a stamp differs: scriptTargetAttached),
 * `full` is not looked at: the installation's columns are read always (which installation it is is known only
 * from the row), the integration's and its owner's when their stamp is not `heldOwner`'s.
 */
function targetRowSql(name: string, target: ScriptTarget, heldScript: string | null, full: boolean, installation?: SqlFragment, heldOwner: string | null = null): SqlFragment {
  const installationId = installation ?? sqlText`${target.installationId ?? null}::text`;
  const columns = installation
    ? sqlText`NULL AS slim, ${columnsAs(integrationInstallations, 'inst', 'inst_')}, changed.*`
    : full
      ? fullColumns()
      : rawSql('NULL AS slim');
  const changed = installation
    ? sqlText`LEFT JOIN LATERAL (SELECT ${ownerColumns()}) changed ON md5(i::text || o::text) IS DISTINCT FROM ${heldOwner}::text`
    : rawSql('');
  return sqlText`SELECT md5(i::text || o::text) AS io_stamp, md5(inst::text) AS inst_stamp, inst.id AS inst_row_id,
      ${columns},
      sc.integration_name AS sc_integration_name, sc.runtime AS sc_runtime, sc.secrets AS sc_secrets, sc.script_hash AS sc_script_hash,
      (CASE WHEN sc.script_hash = ${heldScript}::text THEN NULL ELSE sc.script END) AS sc_script,
      ${columnsAs(integrationSpaceInstallations, 'spi', 'spi_')},
      ${columnsAs(integrationSiteInstallations, 'sti', 'sti_')},
      sp.id AS sp_id, st.id AS st_id, st.visitor_auth_backend AS site_backend, st.visitor_auth_key AS site_key,
      -- Only a v2 script's environment shows the installation's space count (spacesCount() of
      -- target-installations.store.ts): not counted for the others.
      (CASE WHEN sc.runtime = 'v2' AND inst.id IS NOT NULL THEN
        (CASE WHEN inst.space_selection = 'all'
          THEN (SELECT count(*) FROM spaces AS s WHERE s.organization_id = inst.organization_id AND s.deleted_at IS NULL)
          ELSE (SELECT count(*) FROM integration_space_installations AS isi WHERE isi.installation_id = inst.id) END)
        ELSE 0 END) AS spaces
    FROM integrations i
    JOIN organizations o ON o.id = i.organization_id
    ${changed}
    LEFT JOIN integration_scripts sc ON sc.integration_name = i.name
    LEFT JOIN integration_installations inst ON inst.id = ${installationId} AND inst.integration_name = i.name
    LEFT JOIN integration_space_installations spi ON spi.installation_id = inst.id AND spi.space_id = ${target.spaceId ?? null}::text
    LEFT JOIN integration_site_installations sti ON sti.installation_id = inst.id AND sti.site_id = ${target.siteId ?? null}::text
    -- The space, when the installation is on it or covers every live space of its organization (the space's).
    LEFT JOIN spaces sp ON sp.id = ${target.spaceId ?? null}::text AND sp.organization_id = inst.organization_id
      AND sp.deleted_at IS NULL AND (spi.id IS NOT NULL OR inst.space_selection = 'all')
    -- The site, when the installation is on it or covers every site of its organization (the site's).
    LEFT JOIN sites st ON st.id = ${target.siteId ?? null}::text AND st.organization_id = inst.organization_id
      AND (sti.id IS NOT NULL OR inst.site_selection = 'all')
    WHERE i.name = ${name}::text`;
}

/**
 * The row loadScriptTarget reads, as a read attached to another statement (a grant's: ui-render.store.ts),
 * about the installation whose id `installation` (SQL, which may read the statement's own) answers: one row
 * always, `io_stamp` null when the integration does not exist; the integration's and its owner's columns only
 * when this process does not hold them as they are (their stamp differs from the one held), the installation's
 * always: one statement, whatever changed. With it, the credentials the script's environment carries that this
 * process does not hold for that installation (credentialsWrite). loadScriptTarget takes the row back (`preread`).
 */
export function scriptTargetAttached(
  name: string,
  target: Omit<ScriptTarget, 'installationId'>,
  installation: SqlFragment,
  credentialsWhen: SqlFragment,
): { read: AttachedRead; preread: (raw: Record<string, unknown>) => Preread } {
  const owner = heldOwners.get(name);
  const row = targetRowSql(name, target, heldScripts.get(name)?.hash ?? null, true, installation, owner?.stamp ?? null);
  const read = fragmentRead('script_target', sqlText`SELECT t.* FROM (SELECT 1) one LEFT JOIN LATERAL (${row}) t ON true`);
  // The credentials its environment carries that this process does not hold, written where the grant's rule and `credentialsWhen` hold.
  const credentials = credentialsWrite(name, owner?.integration, credentialsWhen);
  return {
    read: { ...read, write: credentials.write },
    // The integration's columns came when this process did not hold it as it is (its stamp differed).
    preread: (raw) => ({ raw, full: raw.i_name != null, credentials: credentials.taken(raw) }),
  };
}

/** A script's row read in another statement (scriptTargetAttached), with the credentials that statement wrote. */
export interface Preread {
  raw: Record<string, unknown>;
  full: boolean;
  credentials?: GivenCredentials;
}

let fullList: SqlFragment | undefined;
/** The columns of the integration, its owner and the installation, as targetOf reads them back. */
function fullColumns(): SqlFragment {
  fullList ??= sqlText`${ownerColumns()}, ${columnsAs(integrationInstallations, 'inst', 'inst_')}`;
  return fullList;
}

let ownerList: SqlFragment | undefined;
/** The columns of the integration and its owner, as targetOf reads them back. */
function ownerColumns(): SqlFragment {
  ownerList ??= sqlText`${columnsAs(integrations, 'i', 'i_')}, ${columnsAs(organizations, 'o', 'o_')}`;
  return ownerList;
}

/** What this process holds of an integration (with its owner) and of an installation, with their stamps. */
interface HeldOwner {
  stamp: string;
  integration: IntegrationRow;
  owner: OrganizationRow;
  /** The integration as the environment shows it, made once for these rows and these URLs. */
  view?: { urls: Urls; value: IntegrationEnvironment['integration'] };
}
const heldOwners = new LRUCache<string, HeldOwner>({ max: 1000 });
const heldInstallations = new LRUCache<string, { stamp: string; installation: InstallationRow }>({ max: 10_000 });

/**
 * The row of targetRow, read back into each table's row (null for a table the left joins did not find); from
 * the slim statement, the integration, its owner and the installation are the ones held (their stamps match).
 */
function targetOf(raw: Record<string, unknown>, name: string, target: ScriptTarget, full: boolean, owner: HeldOwner | undefined, held: { stamp: string; installation: InstallationRow } | undefined) {
  const present = (prefix: string, key: string) => raw[`${prefix}${key}`] != null;
  let ownerRows = owner;
  if (full) {
    ownerRows = { stamp: raw.io_stamp as string, integration: tableRow(integrations, raw, 'i_'), owner: tableRow(organizations, raw, 'o_') };
    heldOwners.set(name, ownerRows);
  }
  let installation: InstallationRow | null = null;
  if (raw.inst_row_id != null) {
    if (!full && !installationColumnsIn(raw)) installation = held!.installation;
    else {
      installation = tableRow(integrationInstallations, raw, 'inst_');
      heldInstallations.set(target.installationId!, { stamp: raw.inst_stamp as string, installation });
    }
  }
  ownerRows = ownerRows!;
  return {
    held: ownerRows,
    integration: ownerRows.integration,
    owner: ownerRows.owner,
    runtime: present('sc_', 'integration_name') ? (raw.sc_runtime as string) : null,
    /** The script's text: null when there is none, or when it is the one held (its hash was given). */
    script: present('sc_', 'integration_name') ? ((raw.sc_script as string | null) ?? null) : null,
    scriptHash: present('sc_', 'integration_name') ? (raw.sc_script_hash as string) : null,
    secrets: present('sc_', 'integration_name') ? tableRow(integrationScripts, raw, 'sc_').secrets : null,
    installation,
    spaces: Number(raw.spaces ?? 0),
    spaceInstallation: present('spi_', 'id') ? tableRow(integrationSpaceInstallations, raw, 'spi_') : null,
    siteInstallation: present('sti_', 'id') ? tableRow(integrationSiteInstallations, raw, 'sti_') : null,
    siteAuth: present('site_', 'backend') ? { backend: raw.site_backend as string, key: (raw.site_key as string | null) ?? null } : null,
    /** The space in the path, when the installation is on it or covers every live space of its organization. */
    coveredSpace: (raw.sp_id as string | null) ?? null,
    /** The site in the path, when the installation is on it or covers every site of its organization. */
    coveredSite: (raw.st_id as string | null) ?? null,
  };
}

/** Whether a slim row carries the installation's columns (scriptTargetAttached's does). */
const installationColumnsIn = (raw: Record<string, unknown>) => 'inst_id' in raw;

/** The scripts this process holds, by integration: their text and hash (immutable: a new publication has another hash). */
const heldScripts = new LRUCache<string, { hash: string; script: string }>({ max: 500, maxSize: 64 * 1024 * 1024, sizeCalculation: (s) => s.script.length + 1 });

/**
 * The installation on site `siteId` of an installation that covers every site of its organization
 * (`site_selection: all`) and has none there: what the script's environment shows as `siteInstallation`.
 * Its configuration is the installation's own (docs/integrations-runtime.md, "Installations on every site").
 */
function coveringSiteInstallation(installation: InstallationRow, siteId: string): SiteInstallationRow {
  return {
    id: '',
    installationId: installation.id,
    integrationName: installation.integrationName,
    siteId,
    status: 'active',
    configuration: installation.configuration,
    externalIds: [],
    createdAt: installation.createdAt,
  };
}

/**
 * The installation on space `spaceId` of an installation that covers every space of its organization
 * (`space_selection: all`) and has none there: what the script's environment shows as `spaceInstallation`.
 * Its configuration is the installation's own (docs/integrations-runtime.md, "Installations on every space").
 */
function coveringSpaceInstallation(installation: InstallationRow, spaceId: string): SpaceInstallationRow {
  return {
    id: '',
    installationId: installation.id,
    integrationName: installation.integrationName,
    spaceId,
    status: 'active',
    configuration: installation.configuration,
    externalIds: [],
    createdAt: installation.createdAt,
  };
}

/** How a script is called: GitBook's dispatch protocol (`v2`) or the plain Workers form (`v1`). */
export type ScriptProtocol = 'v1' | 'v2';

export interface LoadedScript {
  integration: IntegrationRow;
  script: string;
  /** The script's hash (scriptHash): passed to the runtime, which pools sandboxes by it. */
  scriptHash: string;
  protocol: ScriptProtocol;
  secrets: Record<string, string>;
  /** The `v1` script's env (the second argument of its fetch). */
  env: Record<string, unknown>;
  /** The `v2` script's IntegrationEnvironment (sent in the `environment` form field). */
  environment?: IntegrationEnvironment;
}

/**
 * The integration, whether the target in the path exists (its installation, and its installation on the
 * space or site named), the organization of that installation, and the script with its env (undefined
 * when the integration has no script). Undefined when the integration does not exist.
 */
export async function loadScriptTarget(db: Db, name: string, target: ScriptTarget, preread?: Preread) {
  const held = heldScripts.get(name);
  const owner = heldOwners.get(name);
  const installationHeld = target.installationId ? heldInstallations.get(target.installationId) : undefined;
  // The slim statement when this process holds the rows; the full one when it does not, or they changed.
  // A row read with another statement (scriptTargetAttached) is taken as that statement's answer.
  let full = preread ? preread.full : !owner || (target.installationId !== undefined && !installationHeld);
  let [raw] = preread ? (preread.raw.io_stamp == null ? [] : [preread.raw]) : await targetRow(db, name, target, held?.hash ?? null, full);
  const changed = (r: Record<string, unknown>) => r.io_stamp !== owner?.stamp || (r.inst_row_id != null && !installationColumnsIn(r) && r.inst_stamp !== installationHeld?.stamp);
  if (raw && !full && changed(raw)) {
    full = true;
    [raw] = await targetRow(db, name, target, held?.hash ?? null, full);
  }
  if (!raw) return undefined;
  const row = targetOf(raw, name, target, full, owner, installationHeld);
  // Installed on the space in the path itself, or on every space of its organization.
  if (row.spaceInstallation === null && row.coveredSpace !== null && row.installation !== null) {
    row.spaceInstallation = coveringSpaceInstallation(row.installation, row.coveredSpace);
  }
  // Installed on the site in the path itself, or on every site of its organization.
  if (row.siteInstallation === null && row.coveredSite !== null && row.installation !== null) {
    row.siteInstallation = coveringSiteInstallation(row.installation, row.coveredSite);
  }
  const installed = !target.installationId || row.installation !== null;
  const exists = installed && (!target.spaceId || row.spaceInstallation !== null) && (!target.siteId || row.siteInstallation !== null);
  // The integration's own endpoint (no installation) belongs to its owner: organizationId null.
  const organizationId = target.installationId ? (row.installation?.organizationId ?? null) : null;
  if (row.scriptHash === null) return { integration: row.integration, installation: row.installation, exists, organizationId, loaded: undefined };
  let script = row.script;
  if (script === null && held?.hash === row.scriptHash) script = held.script;
  // Published before script_hash was filled (the migration fills it): the hash is made here.
  const hash = row.scriptHash || scriptHash(script!);
  if (row.script !== null) heldScripts.set(name, { hash, script: row.script });
  const secrets = row.secrets ?? {};
  const protocol: ScriptProtocol = row.runtime === 'v2' ? 'v2' : 'v1';
  const credentials = await scriptCredentials(db, {
    integration: row.integration,
    ...(row.installation !== null && target.installationId && { installationId: target.installationId }),
    environment: protocol === 'v2',
  }, preread?.credentials);
  const token = credentials.installationToken;
  const signsVisitors = row.siteInstallation !== null && row.siteAuth?.backend === 'integration' && row.integration.scopes.includes(VISITOR_AUTH_SCOPE);
  const siteVisitorKey = signsVisitors ? await visitorKey({ db }, { id: row.siteInstallation!.siteId, visitorAuthKey: row.siteAuth!.key }) : undefined;
  const loaded: LoadedScript = { integration: row.integration, script: script!, scriptHash: hash, protocol, secrets, env: {} };
  if (protocol === 'v2') {
    const urls = scriptUrls();
    if (row.held.view?.urls !== urls) row.held.view = { urls, value: integrationView(urls, row.integration, row.owner) };
    loaded.environment = integrationEnvironment(urls, {
      integrationView: row.held.view.value,
      integration: row.integration,
      owner: row.owner,
      secrets,
      installation: row.installation,
      spaces: row.spaces,
      spaceInstallation: row.spaceInstallation,
      siteInstallation: row.siteInstallation,
      token,
      integrationToken: credentials.integrationToken!,
      signingSecret: credentials.signingSecret!,
      siteVisitorKey,
    });
  } else {
    loaded.env = v1Env(name, row.integration.version, secrets, target, row, token);
    if (siteVisitorKey) loaded.env.signingSecrets = { siteInstallation: siteVisitorKey };
  }
  return { integration: row.integration, installation: row.installation, exists, organizationId, loaded };
}

/** The env of a `v1` script (see the top of this file). */
function v1Env(
  name: string,
  version: number,
  secrets: Record<string, string>,
  target: ScriptTarget,
  row: { installation: { configuration: Record<string, unknown> } | null; spaceInstallation: { configuration: Record<string, unknown> } | null; siteInstallation: { configuration: Record<string, unknown> } | null },
  token: string | undefined,
): Record<string, unknown> {
  const env: Record<string, unknown> = { secrets, integration: { name, version }, configuration: {}, apiEndpoint: scriptApiEndpoint(), apiTokens: {} };
  if (!target.installationId) return env;
  env.installationId = target.installationId;
  env.configuration = row.installation?.configuration ?? {};
  if (token) env.apiTokens = { installation: token };
  if (target.spaceId) {
    env.spaceId = target.spaceId;
    env.spaceConfiguration = row.spaceInstallation?.configuration ?? {};
  }
  if (target.siteId) {
    env.siteId = target.siteId;
    env.siteConfiguration = row.siteInstallation?.configuration ?? {};
  }
  return env;
}

/** The env a script gets for a request about `target`. */
export async function scriptEnv(db: Db, name: string, target: ScriptTarget) {
  return (await loadScriptTarget(db, name, target))?.loaded;
}
