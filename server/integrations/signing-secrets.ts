// The signing secrets of a script's environment (`signingSecrets`), as GitBook provides them: one for the
// integration, and one for each installation and each space or site installation, with which an
// integration signs and checks what it hands out (its own webhooks' URLs, its cookies, state parameters).
// The integration's is 256 random bits made on first use and stored (integration_signing_secrets), never
// a secret the publisher gave; the others are derived from it by HMAC-SHA256 over the installation (and
// space or site) they belong to: stable, different for each, and none tells another without the
// integration's. The site installation of the integration that signs the site's visitors in gets the
// site's visitor key instead (visitor-auth.ts): what it signs visitor tokens with.
import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { andWhen, rawSql, sqlText, type SqlFragment } from '../db/sql-text.js';

/** The secrets held by this process, by integration and its creation (a name made again gets a new secret). */
const held = new LRUCache<string, string>({ max: 10_000 });

const heldKey = (name: string, createdAt: Date) => `${name}\0${createdAt.getTime()}`;

/** The integration's signing secret when this process holds it (no statement needed). */
export function heldSigningSecret(name: string, createdAt: Date): string | undefined {
  return held.get(heldKey(name, createdAt));
}

/**
 * The parts of a statement that read the integration's signing secret, or make it: the common table expression
 * `<cte>` (an insert when the statement's snapshot has no secret; one another request made after the snapshot
 * is answered by the insert's conflict, DO UPDATE keeping it) and the column answering the secret. The
 * statement is script-credentials.ts's, with the tokens a script's environment carries. With `when` (SQL),
 * the secret is made only where it holds.
 */
export function signingSecretPart(name: string, cte: string, when?: SqlFragment): { ctes: SqlFragment; column: SqlFragment } {
  const made = rawSql(cte);
  return {
    ctes: sqlText`${made} AS (
        INSERT INTO integration_signing_secrets (integration_name, secret, created_at)
        SELECT ${name}::text, ${randomBytes(32).toString('hex')}::text, ${new Date()}::timestamptz
        WHERE NOT EXISTS (SELECT 1 FROM integration_signing_secrets WHERE integration_name = ${name}::text)${andWhen(when)}
        ON CONFLICT (integration_name) DO UPDATE SET secret = integration_signing_secrets.secret RETURNING secret)`,
    column: sqlText`(SELECT secret FROM ${made} UNION ALL SELECT secret FROM integration_signing_secrets WHERE integration_name = ${name}::text LIMIT 1)`,
  };
}

/** Keeps the secret a statement of `signingSecretPart` answered. */
export function keepSigningSecret(name: string, createdAt: Date, secret: string): string {
  held.set(heldKey(name, createdAt), secret);
  return secret;
}

const derive = (root: string, label: string) => createHmac('sha256', root).update(label).digest('hex');

export interface SigningSecrets {
  integration: string;
  installation?: string;
  spaceInstallation?: string;
  siteInstallation?: string;
}

/** The signing secrets of a request about the installation (and space or site installation) given. */
export function signingSecrets(
  root: string,
  target: { installationId?: string; spaceId?: string; siteId?: string; siteVisitorKey?: string },
): SigningSecrets {
  const secrets: SigningSecrets = { integration: root };
  if (!target.installationId) return secrets;
  secrets.installation = derive(root, `installation:${target.installationId}`);
  if (target.spaceId) secrets.spaceInstallation = derive(root, `space:${target.installationId}:${target.spaceId}`);
  if (target.siteId) secrets.siteInstallation = target.siteVisitorKey ?? derive(root, `site:${target.installationId}:${target.siteId}`);
  return secrets;
}
