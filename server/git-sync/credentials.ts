// Credentials a Git URL carries (`https://user:token@host/repo.git`) are split off the URL when the request
// arrives: the sync stores the URL without them, and the job that needs them holds them sealed
// (AES-256-GCM) in its payload, removed when it ends. The key is GIT_CREDENTIALS_KEY when set (every
// process of a deployment shares it, so any of them can run the job); otherwise a key made by this
// process at start, so only the process that accepted the request can open them (another one fails the
// operation saying so). Nothing here is ever logged.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface Credentials {
  username: string;
  password: string;
}

/** A sealed value: base64 of iv (12) + tag (16) + ciphertext. */
export type Sealed = string;

let processKey: Buffer | undefined;

function key(env: Record<string, string | undefined> = process.env): Buffer {
  const configured = env.GIT_CREDENTIALS_KEY;
  if (configured) return createHash('sha256').update(configured).digest();
  return (processKey ??= randomBytes(32));
}

/** The URL without its userinfo, and the credentials it carried (undefined when none). */
export function splitCredentials(url: string): { url: string; credentials?: Credentials } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { url: parsed.toString() };
  const credentials = { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), credentials };
}

/** The credentials sealed with the key. */
export function sealCredentials(credentials: Credentials): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The credentials, or an Error saying why they cannot be opened (another key: another process, or the key changed). */
export function openCredentials(sealed: Sealed): Credentials {
  const raw = Buffer.from(sealed, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Credentials;
  } catch {
    throw new Error(
      'The credentials of this operation cannot be read by this server process (set the same GIT_CREDENTIALS_KEY on every process, ' +
        'or request the operation again)',
    );
  }
}

/** The Authorization header of HTTP basic authentication. */
export function basicAuthorization(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`;
}
