// What a script's environment carries that is written on first use: the installation's token, the
// integration's token (a `v2` script's) and the integration's signing secret. Each is kept by this process
// and handed out again (a token until REUSE_MARGIN_MS before it expires); those it does not hold are stored
// or read in one statement, each token with its bot user found or made and its expired ones removed
// (server/auth/installation-tokens.ts, integration-tokens.ts, service-users.ts, signing-secrets.ts), also when
// another request made the user or the secret at the same time: the first request about an installation in a
// process is then one statement more than the others, not three, and a render none more (credentialsWrite
// writes them in its grant's statement).
import { installationTokenWrite } from '../auth/installation-tokens.js';
import { integrationTokenWrite } from '../auth/integration-tokens.js';
import { fragmentWrite, type AttachedWrite } from '../db/attached-select.js';
import type { Db } from '../db/client.js';
import { rawSql, runSql, sqlText, type SqlFragment } from '../db/sql-text.js';
import type { IntegrationRow } from './integration-view.js';
import { heldSigningSecret, keepSigningSecret, signingSecretPart } from './signing-secrets.js';

type Minted = { token: string; expiresAt: Date };

/** Tokens handed to scripts, by installation, reused until REUSE_MARGIN_MS before they expire (a new one costs writes). */
const handedOut = new Map<string, Minted>();
const REUSE_MARGIN_MS = 10 * 60 * 1000;

/**
 * Tokens of integrations handed to scripts, by integration (and its creation) and the installation concerned,
 * reused as installation tokens are. A token names that installation: @gitbook/runtime queues tasks with the
 * integration's token (`context.integration.queueTask`), and the task is about the installation it came from.
 */
const integrationHandedOut = new Map<string, Minted>();

/** The installations whose tokens this process has handed out, by integration: what a render's statement need not write again (credentialsWrite). */
const installationsOf = new Map<string, Set<string>>();

function remember(name: string, installationId: string | undefined): void {
  if (installationId === undefined) return;
  let ids = installationsOf.get(name);
  if (!ids || ids.size >= 1000) installationsOf.set(name, (ids = new Set()));
  if (installationsOf.size >= 10_000) installationsOf.clear();
  installationsOf.set(name, ids.add(installationId));
}

function reusable(known: Minted | undefined, now: Date): string | undefined {
  return known && known.expiresAt.getTime() - now.getTime() > REUSE_MARGIN_MS ? known.token : undefined;
}

function handOut(tokens: Map<string, Minted>, key: string, minted: Minted): string {
  if (tokens.size >= 10_000) tokens.clear();
  tokens.set(key, minted);
  return minted.token;
}

export interface CredentialsWanted {
  integration: IntegrationRow;
  /** The installation concerned, when it exists: its token. */
  installationId?: string;
  /** A `v2` script's: the integration's token (naming the installation) and its signing secret. */
  environment: boolean;
}

export interface Credentials {
  installationToken?: string;
  integrationToken?: string;
  signingSecret?: string;
}

/** Credentials another statement wrote (credentialsWrite), for this process to hold and hand out. */
export interface GivenCredentials {
  installationToken?: Minted;
  integrationToken?: Minted;
  signingSecret?: string;
}

const integrationKeyOf = (name: string, createdAt: Date, installationId: string | undefined) => `${name}\0${createdAt.getTime()}\0${installationId ?? ''}`;

/**
 * What the script's environment carries of `wanted`: what this process holds (`given` included, which another
 * statement wrote), the rest in one statement.
 */
export async function scriptCredentials(db: Db, wanted: CredentialsWanted, given: GivenCredentials = {}): Promise<Credentials> {
  const now = new Date();
  const { integration, installationId } = wanted;
  const integrationKey = integrationKeyOf(integration.name, integration.createdAt, installationId);
  remember(integration.name, installationId);
  if (given.installationToken && installationId !== undefined) handOut(handedOut, installationId, given.installationToken);
  if (wanted.environment && given.integrationToken) handOut(integrationHandedOut, integrationKey, given.integrationToken);
  if (wanted.environment && given.signingSecret) keepSigningSecret(integration.name, integration.createdAt, given.signingSecret);
  const out: Credentials = {
    ...(installationId !== undefined && { installationToken: reusable(handedOut.get(installationId), now) }),
    ...(wanted.environment && { integrationToken: reusable(integrationHandedOut.get(integrationKey), now), signingSecret: heldSigningSecret(integration.name, integration.createdAt) }),
  };
  const ctes: SqlFragment[] = [];
  const kept: (() => void)[] = [];
  if (installationId !== undefined && out.installationToken === undefined) {
    const write = installationTokenWrite(installationId, integration.title, now, 'installation_token');
    ctes.push(write.ctes);
    kept.push(() => (out.installationToken = handOut(handedOut, installationId, write.minted)));
  }
  if (wanted.environment && out.integrationToken === undefined) {
    const write = integrationTokenWrite(integration.name, integration.title, now, installationId, 'integration_token');
    ctes.push(write.ctes);
    kept.push(() => (out.integrationToken = handOut(integrationHandedOut, integrationKey, write.minted)));
  }
  const secret = wanted.environment && out.signingSecret === undefined ? signingSecretPart(integration.name, 'signing_secret') : undefined;
  if (secret) ctes.push(secret.ctes);
  if (ctes.length === 0) return out;
  // The tokens' inserts run whether or not the answer reads them.
  const [row] = await runSql(db, sqlText`WITH ${joined(ctes)} SELECT ${secret?.column ?? rawSql('NULL')} AS signing_secret`);
  for (const keep of kept) keep();
  if (secret) out.signingSecret = keepSigningSecret(integration.name, integration.createdAt, row!.signing_secret as string);
  return out;
}

/** The fragments separated by commas. */
function joined(fragments: SqlFragment[]): SqlFragment {
  return fragments.slice(1).reduce((all, f) => sqlText`${all}, ${f}`, fragments[0]);
}

/**
 * The credentials of a request's script written in another statement (a render's grant: ui-render.store.ts),
 * as an AttachedWrite over its row `g` (its script's row, loadScriptTarget's: the installation `inst_row_id`,
 * the script's runtime), each only where the access rule and `when` (SQL) hold, and the integration's
 * token and signing secret only for a `v2` script: those this process does not hold for the installation the
 * row names (`owner`, the integration as held). `taken` reads what was written from the statement's row, for
 * scriptCredentials (`given`).
 */
export function credentialsWrite(
  name: string,
  owner: { createdAt: Date } | undefined,
  when: SqlFragment,
): { write: AttachedWrite; taken: (raw: Record<string, unknown>) => GivenCredentials } {
  const now = new Date();
  const tokenHeld = (id: string) => reusable(handedOut.get(id), now) !== undefined;
  const integrationTokenHeld = (id: string) => owner !== undefined && reusable(integrationHandedOut.get(integrationKeyOf(name, owner.createdAt, id)), now) !== undefined;
  const secretHeld = owner !== undefined && heldSigningSecret(name, owner.createdAt) !== undefined;
  // Which installation the render is about is known only from the statement's row (another one may cover the
  // context than at the last render): the writes are always sent, each made only for an installation whose
  // tokens this process does not hold, so that the render is one statement whichever it is.
  const known = [...(installationsOf.get(name) ?? [])];
  const unheld = (ids: string[]) => sqlText`g.inst_row_id NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;
  const installation = rawSql('(SELECT g.inst_row_id FROM g)');
  const title = sqlText`(SELECT title FROM integrations WHERE name = ${name}::text)`;
  // Minted once: fragmentWrite builds the statement's text once.
  const minted: { installation?: Minted; integration?: Minted } = {};
  const ctes = (allowed: SqlFragment) => {
    const condition = sqlText`EXISTS (SELECT 1 FROM g WHERE ${allowed} AND g.inst_row_id IS NOT NULL AND g.sc_integration_name IS NOT NULL AND ${when})`;
    const environmentUnheld = secretHeld ? unheld(known.filter(integrationTokenHeld)) : rawSql('true');
    const v2 = sqlText`${condition} AND EXISTS (SELECT 1 FROM g WHERE g.sc_runtime = 'v2' AND ${environmentUnheld})`;
    const unheldInstallation = sqlText`${condition} AND EXISTS (SELECT 1 FROM g WHERE ${unheld(known.filter(tokenHeld))})`;
    const installationToken = installationTokenWrite(installation, title, now, 'ui_installation_token', unheldInstallation);
    minted.installation = installationToken.minted;
    const integrationToken = integrationTokenWrite(name, title, now, installation, 'ui_integration_token', v2);
    minted.integration = integrationToken.minted;
    const secret = signingSecretPart(name, 'ui_secret_made', v2);
    return joined([installationToken.ctes, integrationToken.ctes, secret.ctes, sqlText`ui_secret AS (SELECT ${secret.column} AS secret)`]);
  };
  const columns = [
    '(SELECT count(*) FROM ui_installation_token)::int AS ui_installation_token_written',
    '(SELECT count(*) FROM ui_integration_token)::int AS ui_integration_token_written, (SELECT secret FROM ui_secret) AS ui_signing_secret',
  ];
  return {
    write: fragmentWrite('ui_credentials', ctes, columns.join(', ')),
    taken: (raw) => ({
      ...(raw.ui_installation_token_written === 1 && { installationToken: minted.installation }),
      ...(raw.ui_integration_token_written === 1 && { integrationToken: minted.integration }),
      ...(typeof raw.ui_signing_secret === 'string' && raw.ui_integration_token_written === 1 && { signingSecret: raw.ui_signing_secret }),
    }),
  };
}
