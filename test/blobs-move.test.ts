// move-files: a workspace of 1,000 files moved from the database to S3 and back, every hash checked, the
// files downloadable throughout; stopped half-way, a second run finishes the job.
import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBlob } from '../server/blobs/blobs.js';
import { moveBlobs } from '../server/blobs/move.js';
import { blobChunks, blobs, contentFiles } from '../server/db/schema/index.js';
import { startFileStore, type TestFileStore } from './support/file-store.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';

const h = useHarness();
const FILES = 1000;
let store: TestFileStore;
beforeAll(async () => {
  store = await startFileStore('database', {}, { withS3: true });
});
afterAll(() => store.stop());

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Every file row's blob read back from wherever it is now and hashed: all must match. Ten at a time: one by one, the four passes took 6 of the test's 24 s. */
async function verifyAll(): Promise<number> {
  const rows = await h.current.db.select({ sha256: contentFiles.sha256 }).from(contentFiles);
  let checked = 0;
  const verify = async (sha: string) => {
    const hash = createHash('sha256');
    for await (const chunk of await openBlob(h.current.db, sha)) hash.update(chunk as Buffer);
    expect(hash.digest('hex')).toBe(sha);
    checked++;
  };
  for (let i = 0; i < rows.length; i += 10) await Promise.all(rows.slice(i, i + 10).map((row) => verify(row.sha256)));
  return checked;
}

const backendsInUse = async () => (await h.current.db.select({ backend: blobs.backend, n: count() }).from(blobs).groupBy(blobs.backend)).map((r) => [r.backend, r.n]);

describe('move-files', () => {
  it('leaves a blob whose source bytes do not match its name where it is, and says so', async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Corrupt' })).body.id as string;
    const cr = (await admin.api.post(`/spaces/${space}/change-requests`, { subject: 'Files' })).body.id as string;
    const res = await admin.api.post(`/spaces/${space}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'bad.txt', contentType: 'text/plain', base64: Buffer.from(`bad ${space}`).toString('base64') }] }],
    });
    expect(res.status).toBe(200);
    const sha = sha256(`bad ${space}`);
    await h.current.db.update(blobChunks).set({ bytes: Buffer.from('tampered') }).where(eq(blobChunks.sha256, sha));
    const report = await moveBlobs(h.current.db, 's3');
    expect(report.failed).toEqual([{ sha256: sha, reason: expect.stringContaining('hashes to') }]);
    expect((await h.current.db.select().from(blobs).where(eq(blobs.sha256, sha)))[0]!.backend).toBe('database');
    // Out of the way of the next test, which counts every blob.
    await h.current.db.delete(contentFiles).where(eq(contentFiles.sha256, sha));
    await h.current.db.delete(blobs).where(eq(blobs.sha256, sha));
  });


  it(`moves ${FILES} files from the database to S3 and back, every hash checked, resuming after a stop`, { timeout: 600_000 }, async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Many files' })).body.id as string;
    const cr = (await admin.api.post(`/spaces/${space}/change-requests`, { subject: 'Files' })).body.id as string;
    for (let batch = 0; batch < FILES / 20; batch++) {
      const files = Array.from({ length: 20 }, (_, i) => {
        const n = batch * 20 + i;
        return { name: `file-${n}.txt`, contentType: 'text/plain', base64: Buffer.from(`file ${n} of ${space}\n`.repeat(1 + (n % 7))).toString('base64') };
      });
      const res = await admin.api.post(`/spaces/${space}/change-requests/${cr}/content?compat=false`, { changes: [{ operation: 'insert_files', files }] });
      expect(res.status).toBe(200);
    }
    const sample = (await admin.api.get(`/spaces/${space}/change-requests/${cr}/content/files/${(await h.current.db.select().from(contentFiles).where(eq(contentFiles.name, 'file-7.txt')))[0]!.fileId}`)).body;
    expect(await backendsInUse()).toEqual([['database', FILES]]);

    // Stopped after 400 (and the few moves in flight then): those are in S3, the rest still in the database, all readable.
    const stop = new Error('stopped');
    await expect(moveBlobs(h.current.db, 's3', (done) => { if (done === 400) throw stop; })).rejects.toBe(stop);
    const partial = Object.fromEntries(await backendsInUse()) as Record<string, number>;
    expect(partial.s3).toBeGreaterThanOrEqual(400);
    expect(partial.s3).toBeLessThan(FILES);
    expect(partial.database).toBe(FILES - partial.s3!);
    expect(await verifyAll()).toBe(FILES);
    // The second run carries on.
    const first = await moveBlobs(h.current.db, 's3');
    expect(first).toMatchObject({ moved: partial.database, failed: [] });
    expect(await backendsInUse()).toEqual([['s3', FILES]]);
    expect((await h.current.db.select({ n: count() }).from(blobChunks))[0]!.n).toBe(0);
    expect(await verifyAll()).toBe(FILES);
    // The server keeps serving them: from S3 now (a redirect to the bucket).
    const redirect = await request(h.current.app).get(sample.downloadURL.slice(PUBLIC_URL.length));
    expect(redirect.status).toBe(302);
    const fromS3 = await fetch(redirect.headers.location);
    expect(fromS3.status).toBe(200);
    expect(await fromS3.text()).toBe(`file 7 of ${space}\n`.repeat(1 + (7 % 7)));

    const back = await moveBlobs(h.current.db, 'database');
    expect(back).toMatchObject({ moved: FILES, failed: [] });
    expect(await backendsInUse()).toEqual([['database', FILES]]);
    expect(await verifyAll()).toBe(FILES);
    const direct = await request(h.current.app).get(sample.downloadURL.slice(PUBLIC_URL.length));
    expect(direct.status).toBe(200);
    expect(sha256(direct.text)).toBe(sha256(`file 7 of ${space}\n`));
  });

});
