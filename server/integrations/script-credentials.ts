// What a script's environment carries that is written on first use: the installation's token, the
// integration's token (a `v2` script's) and the integration's signing secret. Each is kept by this process
// and handed out again (a token until REUSE_MARGIN_MS before it expires); those it does not hold are stored
// or read in one statement, each token with its bot user found or made and its expired ones removed
// (server/auth/installation-tokens.ts, integration-tokens.ts, service-users.ts, signing-secrets.ts), also when
// another request made the user or the secret at the same time: the first render of an integration in a
// process is then one statement more than the others, not three.
import { installationTokenWrite } from '../auth/installation-tokens.js';
import { integrationTokenWrite } from '../auth/integration-tokens.js';
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

/** What the script's environment carries of `wanted`: what this process holds, the rest in one statement. */
export async function scriptCredentials(db: Db, wanted: CredentialsWanted): Promise<Credentials> {
  const now = new Date();
  const { integration, installationId } = wanted;
  const integrationKey = `${integration.name}\0${integration.createdAt.getTime()}\0${installationId ?? ''}`;
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
