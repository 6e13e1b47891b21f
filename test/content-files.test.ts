// Files are real: their bytes are stored with the space, listed with their size and (images) dimensions,
// downloaded from a signed, expiring link under PUBLIC_URL, fetched when given by URL (through the outbound
// guard, with a cap), and kept by merges, duplicateSpace and transfers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';

const h = useHarness();

// A 1×1 PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const csv = 'name,role\nAda,admin\n';
const big = Buffer.alloc(4 * 1024 * 1024 + 1, 'a');

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/team.csv') res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end(csv);
    else if (req.url === '/huge.bin') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(big);
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function openChangeRequest(admin: Account, spaceId: string) {
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Files' });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

function insertFiles(admin: Account, spaceId: string, crId: string, files: unknown[]) {
  return admin.api.post(`/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes: [{ operation: 'insert_files', files }] });
}

/** The download at an absolute URL this server handed out, fetched without a token (from S3 when it redirects there). */
async function download(url: string) {
  expect(url.startsWith(`${PUBLIC_URL}/v1/files/`)).toBe(true);
  const res = await fetchOnce(url);
  if (res.status !== 302) return Object.assign(res, { redirected: false });
  const stored = await fetch(res.headers.location!);
  return { status: stored.status, headers: Object.fromEntries(stored.headers), body: Buffer.from(await stored.arrayBuffer()), redirected: true };
}

function fetchOnce(url: string) {
  return request(h.current.app)
    .get(url.slice(PUBLIC_URL.length))
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

async function spaceWithFiles(admin: Account) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Assets' })).body;
  const cr = await openChangeRequest(admin, space.id);
  const res = await insertFiles(admin, space.id, cr.id, [
    { name: 'pixel.png', contentType: 'image/png', base64: png },
    { name: 'team list.csv', url: `${origin}/team.csv` },
  ]);
  expect(res.status).toBe(200);
  return { spaceId: space.id as string, cr, inserted: res.body.insertedFiles as { id: string; name: string; downloadURL: string }[] };
}

describe('files', () => {
  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content stores the bytes of base64 and url files; their links download them', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, cr, inserted } = await spaceWithFiles(admin);
    expect(inserted).toEqual([
      expect.objectContaining({ name: 'pixel.png', contentType: 'image/png', size: Buffer.from(png, 'base64').length, dimensions: { width: 1, height: 1 } }),
      expect.objectContaining({ name: 'team list.csv', contentType: 'text/csv', size: Buffer.byteLength(csv) }),
    ]);
    expect(inserted[1]).not.toHaveProperty('dimensions');

    const listed = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/files`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((f: { name: string }) => f.name).sort()).toEqual(['pixel.png', 'team list.csv']);

    const image = await download(inserted[0].downloadURL);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toBe(`inline; filename="pixel.png"; filename*=UTF-8''pixel.png`);
    // Bytes served from the store's own origin (S3) cannot run as this server's page: nosniff is ours.
    if (!image.redirected) expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect((image.body as Buffer).equals(Buffer.from(png, 'base64'))).toBe(true);

    const one = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.id}/content/files/${inserted[1].id}`);
    expect(one.status).toBe(200);
    const table = await download(one.body.downloadURL);
    expect(table.status).toBe(200);
    expect(table.headers['content-type']).toMatch(/^text\/csv/);
    expect(table.headers['content-disposition']).toBe(`attachment; filename="team list.csv"; filename*=UTF-8''team%20list.csv`);
    expect((table.body as Buffer).toString()).toBe(csv);
  });

  it('get /v1/files/... answers 404 for a forged or altered link and 410 once the link has expired', async () => {
    const admin = await h.current.newAdmin();
    const { inserted } = await spaceWithFiles(admin);
    const url = inserted[0].downloadURL;
    const forged = url.replace(/signature=[^&]+/, 'signature=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await download(forged)).status).toBe(404);
    const later = url.replace(/expires=(\d+)/, (_, e) => `expires=${Number(e) + 3600}`);
    expect((await download(later)).status).toBe(404);
    const otherFile = url.replace(inserted[0].id, inserted[1].id);
    expect((await download(otherFile)).status).toBe(404);
    h.current.advanceClock(2 * 60 * 60 * 1000);
    expect((await download(url)).status).toBe(410);
  });

  it('post /spaces/{spaceId}/change-requests/{changeRequestId}/content refuses a url that cannot be fetched (400 naming the file) and a file over the cap (413), writing nothing', async () => {
    const admin = await h.current.newAdmin();
    const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Assets' })).body;
    const cr = await openChangeRequest(admin, space.id);
    const before = (await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}`)).body.revision;
    const missing = await insertFiles(admin, space.id, cr.id, [{ name: 'gone.png', url: `${origin}/gone.png` }]);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('body.changes[0].files[0].url');
    expect(missing.body.error.message).toContain('gone.png');
    const huge = await insertFiles(admin, space.id, cr.id, [
      { name: 'ok.png', contentType: 'image/png', base64: png },
      { name: 'huge.bin', url: `${origin}/huge.bin` },
    ]);
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toContain('body.changes[0].files[1]');
    expect(huge.body.error.message).toContain('huge.bin');
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}`)).body.revision).toBe(before);
    expect((await admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}/content/files`)).body.items).toEqual([]);
  });

  it('post /spaces/{spaceId}/duplicate copies pages, tree and files (bytes included) of a space whose change request was merged', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, cr, inserted } = await spaceWithFiles(admin);
    const pages = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: '# Guide\n\n![pixel](pixel.png)' } },
        { operation: 'insert_page', title: 'Install', into: 'guide', document: { markdown: 'Run it.' } },
      ],
    });
    expect(pages.status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);

    // The space's own file links work after the merge.
    const own = await admin.api.get(`/spaces/${spaceId}/content/files/${inserted[0].id}`);
    expect(own.status).toBe(200);
    expect((await download(own.body.downloadURL)).status).toBe(200);

    const copy = await admin.api.post(`/spaces/${spaceId}/duplicate`);
    expect(copy.status).toBe(201);
    const tree = await admin.api.get(`/spaces/${copy.body.id}/content/pages`);
    expect(tree.status).toBe(200);
    expect(tree.body.pages.map((p: { title: string; pages: { title: string }[] }) => [p.title, p.pages.map((c) => c.title)])).toEqual([['Guide', ['Install']]]);
    const page = await admin.api.get(`/spaces/${copy.body.id}/content/page/${tree.body.pages[0].id}`, { format: 'markdown' });
    // The leading `# Guide` was the page's title, not a block: the content is the image.
    expect(page.body.markdown).toBe('![pixel](pixel.png)');
    const files = await admin.api.get(`/spaces/${copy.body.id}/content/files`);
    expect(files.body.items).toHaveLength(2);
    const copied = files.body.items.find((f: { name: string }) => f.name === 'pixel.png');
    expect(copied.downloadURL).toContain(`/v1/files/${copy.body.id}/`);
    const bytes = await download(copied.downloadURL);
    expect(bytes.status).toBe(200);
    expect((bytes.body as Buffer).equals(Buffer.from(png, 'base64'))).toBe(true);

    // The copy keeps its bytes when the original is gone.
    expect((await admin.api.delete(`/spaces/${spaceId}`)).status).toBe(204);
    expect((await download(own.body.downloadURL)).status).toBe(404);
    expect((await download(copied.downloadURL)).status).toBe(200);
  });

  it('post /spaces/{spaceId}/transfer keeps the files of the space downloadable', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, cr, inserted } = await spaceWithFiles(admin);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const target = await admin.api.post('/orgs', { title: 'Elsewhere' });
    expect(target.status).toBe(201);
    const moved = await admin.api.post(`/spaces/${spaceId}/transfer`, { organization: target.body.id });
    expect(moved.status).toBe(200);
    const file = await admin.api.get(`/spaces/${spaceId}/content/files/${inserted[1].id}`);
    expect(file.status).toBe(200);
    const bytes = await download(file.body.downloadURL);
    expect(bytes.status).toBe(200);
    expect((bytes.body as Buffer).toString()).toBe(csv);
  });
});
