// The file store on each backend (the database, a folder, S3 through a local s3rver): bytes stored once per
// sha256 however many spaces use them, downloads streamed with Range and ETag (S3's through a presigned
// redirect), the store down answered with 503 and Retry-After and nothing half-written, and the collector
// deleting only what nothing refers to.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { count, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBlob } from '../server/blobs/blobs.js';
import { blobStoreFrom, configureBlobStore } from '../server/blobs/store.js';
import { collectBlobs } from '../server/blobs/collect.job.js';
import { s3Client } from '../server/blobs/s3-backend.js';
import { blobChunks, blobs, contentFiles } from '../server/db/schema/index.js';
import { backendKinds, startFileStore, type TestFileStore } from './support/file-store.js';
import type { Account } from './support/harness.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';

const h = useHarness();
const HOUR = 3_600_000;

// Files larger than a base64 body takes are given by URL: served from here, fetched by the server.
const served = new Map<string, Buffer>();
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const bytes = served.get(req.url ?? '');
    if (bytes) res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** Bytes of their own, so each test's blobs are new ones. */
const uniqueBytes = (size: number, label: string) => {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + label.charCodeAt(i % label.length)) & 0xff;
  return bytes;
};

async function newSpace(admin: Account, title = 'Assets'): Promise<string> {
  const res = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A small file as base64, a larger one by URL (served by this test). */
function given(name: string, bytes: Buffer): { base64: string } | { url: string } {
  if (bytes.length < 512 * 1024) return { base64: bytes.toString('base64') };
  served.set(`/${name}`, bytes);
  return { url: `${origin}/${name}` };
}

/** Inserts `bytes` as a file of a new change request of the space; its download URL and the HTTP status. */
async function insertFile(admin: Account, spaceId: string, name: string, bytes: Buffer) {
  const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Files' });
  expect(cr.status).toBe(201);
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [{ operation: 'insert_files', files: [{ name, contentType: 'application/octet-stream', ...given(name, bytes) }] }],
  });
  return { status: res.status, body: res.body, file: res.body.insertedFiles?.[0] as { id: string; downloadURL: string } | undefined };
}

/** GET of a URL this server handed out, without a token, with `headers`; not following redirects. */
function get(url: string, headers: Record<string, string> = {}) {
  let req = request(h.current.app).get(url.slice(PUBLIC_URL.length)).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  return req;
}

/** Where a download's bytes are: this server's answer, or the store's behind the redirect. */
async function download(url: string, headers: Record<string, string> = {}) {
  const res = await get(url, headers);
  if (res.status !== 302) return { status: res.status, headers: res.headers as Record<string, string>, body: res.body as Buffer, redirected: false };
  expect(res.headers['cache-control']).toBe('no-store');
  const stored = await fetch(res.headers.location, { headers });
  return { status: stored.status, headers: Object.fromEntries(stored.headers), body: Buffer.from(await stored.arrayBuffer()), redirected: true };
}

/** How many copies of `sha` the backend holds. */
async function copiesIn(store: TestFileStore, sha: string): Promise<number> {
  if (store.kind === 'database') {
    const [row] = await h.current.db.select({ n: count() }).from(blobChunks).where(eq(blobChunks.sha256, sha));
    return row!.n > 0 ? 1 : 0;
  }
  if (store.kind === 'folder') return existsSync(path.join(store.settings.dir, sha.slice(0, 2), sha.slice(2, 4), sha)) ? 1 : 0;
  const listed = await s3Client(store.s3!.settings).send(new ListObjectsV2Command({ Bucket: store.s3!.settings.bucket, Prefix: `${store.s3!.settings.prefix}blobs/` }));
  return (listed.Contents ?? []).filter((o) => o.Key?.endsWith(sha)).length;
}

describe.each(backendKinds)('the %s file store', (kind) => {
  let store: TestFileStore;
  beforeAll(async () => {
    store = await startFileStore(kind);
  });
  afterAll(() => store.stop());

  it('get /v1/files/... streams the bytes with an ETag, answers If-None-Match with 304, a Range with 206 and a range outside with 416', async () => {
    const admin = await h.current.newAdmin();
    const bytes = uniqueBytes(3 * 1024 * 1024 + 17, `range-${kind}`);
    const { status, file, body } = await insertFile(admin, await newSpace(admin), `data-${kind}.bin`, bytes);
    expect(status, JSON.stringify(body)).toBe(200);
    const whole = await download(file!.downloadURL);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(bytes)).toBe(true);
    expect(whole.redirected).toBe(kind === 's3');
    expect(whole.headers['content-disposition']).toBe(`attachment; filename="data-${kind}.bin"; filename*=UTF-8''data-${kind}.bin`);
    const etag = whole.headers.etag!;
    expect(etag).toBe(kind === 's3' ? whole.headers.etag : `"${sha256(bytes)}"`);

    // A range across the 1 MiB chunks of the database backend.
    const part = await download(file!.downloadURL, { range: 'bytes=1048570-2097160' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1048570-2097160/${bytes.length}`);
    expect(part.body.equals(bytes.subarray(1048570, 2097161))).toBe(true);
    // A suffix range (s3rver, unlike S3, does not take these: from S3 they go through this server, with
    // presigned downloads off, which turns them into first-last ranges).
    if (kind === 's3') configureBlobStore(blobStoreFrom({ ...store.settings, s3: { ...store.settings.s3!, presignSeconds: 0 } }));
    try {
      const tail = await download(file!.downloadURL, { range: 'bytes=-10' });
      expect(tail.status).toBe(206);
      expect(tail.redirected).toBe(false);
      expect(tail.body.equals(bytes.subarray(bytes.length - 10))).toBe(true);
      const proxied = await download(file!.downloadURL, { range: 'bytes=100-199' });
      expect(proxied.headers.etag).toBe(`"${sha256(bytes)}"`);
      expect(proxied.body.equals(bytes.subarray(100, 200))).toBe(true);
    } finally {
      configureBlobStore(store.store);
    }

    // This server's own answers (the redirect is decided after these).
    const ours = `"${sha256(bytes)}"`;
    const unchanged = await get(file!.downloadURL, { 'if-none-match': ours });
    expect(unchanged.status).toBe(304);
    const outside = await get(file!.downloadURL, { range: `bytes=${bytes.length}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  it('stores the same asset used in two spaces (and duplicated into a third) once', async () => {
    const admin = await h.current.newAdmin();
    const bytes = uniqueBytes(200_000, `dedupe-${kind}`);
    const sha = sha256(bytes);
    const [a, b] = [await newSpace(admin, 'A'), await newSpace(admin, 'B')];
    expect((await insertFile(admin, a, 'logo.png', bytes)).status).toBe(200);
    expect((await insertFile(admin, b, 'logo-copy.png', bytes)).status).toBe(200);
    const copy = await admin.api.post(`/spaces/${a}/duplicate`);
    expect(copy.status).toBe(201);
    const refs = await h.current.db.select({ spaceId: contentFiles.spaceId }).from(contentFiles).where(eq(contentFiles.sha256, sha));
    expect(refs.map((r) => r.spaceId).sort()).toEqual([a, b, copy.body.id].sort());
    const rows = await h.current.db.select().from(blobs).where(eq(blobs.sha256, sha));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ size: bytes.length, backend: kind });
    expect(rows[0]!.storedAt).not.toBeNull();
    expect(await copiesIn(store, sha)).toBe(1);
  });

  it('the collector deletes blobs nothing refers to after the grace period, and never a referenced one', async () => {
    const admin = await h.current.newAdmin();
    const kept = uniqueBytes(5000, `kept-${kind}`);
    const dropped = uniqueBytes(5000, `dropped-${kind}`);
    const space = await newSpace(admin);
    expect((await insertFile(admin, space, 'kept.bin', kept)).status).toBe(200);
    const other = await newSpace(admin, 'Other');
    expect((await insertFile(admin, other, 'dropped.bin', dropped)).status).toBe(200);
    // The other space goes for good (as the purge of deleted spaces does): its files with it.
    await h.current.db.execute(sql`DELETE FROM spaces WHERE id = ${other}`);
    const now = new Date();
    // Within the grace period: both stay.
    await collectBlobs(h.current.db, now, HOUR);
    expect(await copiesIn(store, sha256(dropped))).toBe(1);
    // Past it: the unreferenced one goes, row and bytes; the referenced one stays however old.
    const later = new Date(now.getTime() + 2 * HOUR);
    let deleted = 0;
    for (let round = 0; round < 50; round++) {
      const pass = await collectBlobs(h.current.db, later, HOUR);
      deleted += pass.deleted;
      if (!pass.full) break;
    }
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await h.current.db.select().from(blobs).where(eq(blobs.sha256, sha256(dropped)))).toHaveLength(0);
    expect(await copiesIn(store, sha256(dropped))).toBe(0);
    expect(await copiesIn(store, sha256(kept))).toBe(1);
    const chunks: Buffer[] = [];
    for await (const c of await openBlob(h.current.db, sha256(kept))) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(kept)).toBe(true);
  });
});
