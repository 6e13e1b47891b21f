import { createHash, randomBytes } from 'node:crypto';

/** A new random access token, shown to its owner once. */
export function newToken(): string {
  return `dwt_${randomBytes(24).toString('base64url')}`;
}

/** What is stored of a token: its sha256, so a leaked database does not leak usable tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new installation token (createIntegrationInstallationToken); its prefix tells the authenticator where to look it up. */
export function newInstallationToken(): string {
  return `dwit_${randomBytes(24).toString('base64url')}`;
}

export function isInstallationToken(token: string): boolean {
  return token.startsWith('dwit_');
}

/** A new token of an integration itself (the `apiTokens.integration` of a script's environment). */
export function newIntegrationToken(): string {
  return `dwint_${randomBytes(24).toString('base64url')}`;
}

export function isIntegrationToken(token: string): boolean {
  return token.startsWith('dwint_');
}
