// The file store is a dependency like the database: with S3 unreachable, reads that need it answer 503
// with Retry-After, a write answers 503 saying so and leaves nothing in the database, /ready says it.
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Of } from '../server/blobs/blobs.js';
import { blobStoreFrom, configureBlobStore } from '../server/blobs/store.js';
import { blobs, contentFiles } from '../server/db/schema/index.js';
import { startFileStore, type TestFileStore } from './support/file-store.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';

const h = useHarness();
let store: TestFileStore;
beforeAll(async () => {
  store = await startFileStore('s3');
  // Proxied downloads, so this server is the one reading S3 (a presigned URL is made without asking S3).
  configureBlobStore(blobStoreFrom({ ...store.settings, s3: { ...store.settings.s3!, presignSeconds: 0 } }));
});
afterAll(() => store.stop());

describe('the S3 file store unreachable', () => {
  it('get /v1/files/... and /ready answer 503 with Retry-After; post …/content answers 503 and writes nothing', async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Assets' })).body.id as string;
    const cr = (await admin.api.post(`/spaces/${space}/change-requests`, { subject: 'Files' })).body.id as string;
    const insert = (name: string, text: string) =>
      admin.api.post(`/spaces/${space}/change-requests/${cr}/content?compat=false`, {
        changes: [{ operation: 'insert_files', files: [{ name, contentType: 'text/plain', base64: Buffer.from(text).toString('base64') }] }],
      });
    const stored = await insert('before.txt', 'stored before the outage');
    expect(stored.status).toBe(200);
    const url = stored.body.insertedFiles[0].downloadURL as string;
    expect((await request(h.current.app).get(url.slice(PUBLIC_URL.length))).status).toBe(200);
    expect((await request(h.current.app).get('/ready')).status).toBe(200);

    await store.s3!.stop();

    const read = await request(h.current.app).get(url.slice(PUBLIC_URL.length));
    expect(read.status).toBe(503);
    expect(read.headers['retry-after']).toBe('5');
    expect(read.body.error.message).toBe('The file store (s3) is unavailable; retry shortly');

    const ready = await request(h.current.app).get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.body.error.message).toBe('The file store is unavailable');

    const text = 'written during the outage';
    const write = await insert('during.txt', text);
    expect(write.status).toBe(503);
    expect(write.headers['retry-after']).toBe('5');
    expect(write.body.error.message).toBe('The file store (s3) is unavailable; retry shortly');
    // Nothing half-written: no blob row, no file row, the change request's files as they were.
    expect(await h.current.db.select().from(blobs).where(eq(blobs.sha256, sha256Of(Buffer.from(text))))).toHaveLength(0);
    expect((await h.current.db.select().from(contentFiles).where(eq(contentFiles.spaceId, space))).map((f) => f.name)).toEqual(['before.txt']);
    const files = await admin.api.get(`/spaces/${space}/change-requests/${cr}/content/files`);
    expect(files.status).toBe(200);
    expect(files.body.items.map((f: { name: string }) => f.name)).toEqual(['before.txt']);
  });
});
