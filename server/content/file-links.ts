// Download links of files: `<PUBLIC_URL>/v1/files/<space>/<file>/<name>?expires=<unix s>&signature=<…>`.
// A browser opens them without an API token, so the link is the permission: an HMAC-SHA256 of the
// space, the file and the expiry under a key kept in the database (made once by a migration, so every
// process signs and checks alike). Links are handed out with each read of a file and last an hour (the
// expiry is rounded up to 5 minutes, so reads close in time give the same URL); the change-request PDF
// link differs on purpose (a random token with a stored row): it pins a revision and a page selection
// a link must remember, where a file link needs to name only the file.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { uncounted } from '../db/query-count.js';
import { linkSigningKeys } from '../db/schema/index.js';
import type { StoredFile } from './revision-content.js';

export const FILE_LINK_LIFETIME_MS = 60 * 60 * 1000;
const ROUND_MS = 5 * 60 * 1000;

/** The signing key never changes once made, so each database's key is read once. */
const keys = new WeakMap<object, Promise<Buffer>>();

async function readKey(db: Db): Promise<Buffer> {
  const [row] = await db.select({ secret: linkSigningKeys.secret }).from(linkSigningKeys).where(eq(linkSigningKeys.name, 'files'));
  if (!row) throw new Error('The file-link signing key is missing: the database is not migrated');
  return Buffer.from(row.secret, 'utf8');
}

/** The key, cached per `owner` (an object living as long as the database it was read from). */
function keyFor(owner: object, db: Db): Promise<Buffer> {
  let key = keys.get(owner);
  if (!key) {
    // Read once, then cached: not counted against the request that happens to read it first.
    key = uncounted(() => readKey(db));
    keys.set(owner, key);
    key.catch(() => keys.delete(owner));
  }
  return key;
}

function sign(key: Buffer, spaceId: string, fileId: string, expires: number): string {
  return createHmac('sha256', key).update(`${spaceId}\n${fileId}\n${expires}`).digest('base64url');
}

export interface FileLinks {
  /** The absolute, signed download URL of a file of the space. */
  url(file: Pick<StoredFile, 'id' | 'name'>): string;
}

/** A link maker for the files of the space, valid an hour from now. */
export async function fileLinks(ctx: Ctx, spaceId: string): Promise<FileLinks> {
  // ctx.urls lives as long as the app, and the app as long as its database.
  const key = await keyFor(ctx.urls, ctx.db);
  const expires = Math.ceil((ctx.now().getTime() + FILE_LINK_LIFETIME_MS) / ROUND_MS) * (ROUND_MS / 1000);
  return {
    url: (file) =>
      ctx.urls.api(`/files/${spaceId}/${file.id}/${encodeURIComponent(file.name)}?expires=${expires}&signature=${sign(key, spaceId, file.id, expires)}`),
  };
}

/** Whether a link's signature is right ('bad'), and if so whether it is still valid ('expired'). */
export async function checkFileLink(db: Db, link: { spaceId: string; fileId: string; expires: string; signature: string }, now: Date): Promise<'ok' | 'expired' | 'bad'> {
  if (!/^\d{1,12}$/.test(link.expires)) return 'bad';
  const expected = Buffer.from(sign(await keyFor(db, db), link.spaceId, link.fileId, Number(link.expires)));
  const given = Buffer.from(link.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad';
  return Number(link.expires) * 1000 <= now.getTime() ? 'expired' : 'ok';
}
