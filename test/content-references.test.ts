// References resolve wherever content is shown (server/content/ref-resolver.ts): a batch's `insert_files[].ref`
// and `insert_page.ref` name files and pages from documents of the same batch; the `markdown` format writes
// page and file references as relative paths (as GitBook's Git Sync does) and reads them back; the link
// checker reports what resolves to nothing as broken; the published site links to its own page URLs and
// serves the space's files at stable URLs of the site, to readers of a page that refers to them.
import { describe, expect, it } from 'vitest';
import { hrefs, open, publish } from './published-support.js';
import { newSite } from './sites-support.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();

// A 1×1 PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
const link = (ref: unknown, label: string) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text(label)] });

/** A space with a guide (with a subpage) and a page linking to them and showing the logo, all in one batch. */
async function spaceWithReferences(admin: Account) {
  const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' });
  expect(space.status).toBe(201);
  const spaceId = space.body.id as string;
  const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Write' });
  expect(cr.status).toBe(201);
  const home = {
    object: 'document',
    data: {},
    nodes: [
      paragraph(text('Read '), link({ kind: 'page', page: 'setup' }, 'the setup'), text(', its '), link({ kind: 'anchor', page: 'setup', anchor: 'proxy' }, 'proxy part'), text(' and '), link({ kind: 'url', url: 'https://example.com/x' }, 'elsewhere')),
      { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'logo' }, alt: 'Logo' }, fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(text('Our logo'))] }] }] },
      { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'sheet' } } },
    ],
  };
  const written = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', ref: 'home', title: 'Home', document: { document: home } },
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide. Back [home](home).' } },
      { operation: 'insert_page', ref: 'setup', into: 'guide', title: 'Setup', document: { markdown: '# Setup\n\n## Proxy\n\nSet it. ![Logo](logo)' } },
      { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: png }, { ref: 'sheet', name: 'sheet.csv', contentType: 'text/csv', base64: Buffer.from('a,b\n').toString('base64') }] },
    ],
  });
  expect(written.status, JSON.stringify(written.body)).toBe(200);
  expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  const [homeId, guideId, setupId] = written.body.changes.slice(0, 3).map((c: { page: { id: string } }) => c.page.id);
  const files = await admin.api.get(`/spaces/${spaceId}/content/files`);
  expect(files.status).toBe(200);
  const fileId = (name: string) => files.body.items.find((f: { name: string }) => f.name === name).id as string;
  return { spaceId, homeId, guideId, setupId, logoId: fileId('logo.png'), sheetId: fileId('sheet.csv') };
}

describe('references', () => {
  it('post …/content: insert_files[].ref and insert_page.ref name the file and the page from documents of the same batch', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, homeId, guideId, setupId, logoId, sheetId } = await spaceWithReferences(admin);
    const doc = await admin.api.get(`/spaces/${spaceId}/content/page/${homeId}`, { format: 'document' });
    expect(doc.status).toBe(200);
    const [first, images, file] = doc.body.document.nodes;
    expect(first.nodes[1].data.ref).toEqual({ kind: 'page', page: setupId });
    expect(first.nodes[3].data.ref).toEqual({ kind: 'anchor', page: setupId, anchor: 'proxy' });
    expect(images.nodes[0].data.ref).toEqual({ kind: 'file', file: logoId });
    expect(file.data.ref).toEqual({ kind: 'file', file: sheetId });
    // Markdown names them the same way.
    const guide = await admin.api.get(`/spaces/${spaceId}/content/page/${guideId}`, { format: 'document' });
    expect(guide.body.document.nodes[0].nodes[1].data.ref).toEqual({ kind: 'page', page: homeId });
    const setup = await admin.api.get(`/spaces/${spaceId}/content/page/${setupId}`, { format: 'document' });
    expect(setup.body.document.nodes[1].nodes[1].data.ref).toEqual({ kind: 'file', file: logoId });
  });

  it('get …/page?format=markdown writes references as relative paths, and a Markdown write reads them back', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, homeId, setupId, logoId } = await spaceWithReferences(admin);
    const home = await admin.api.get(`/spaces/${spaceId}/content/page/${homeId}`, { format: 'markdown' });
    expect(home.status).toBe(200);
    expect(home.body.markdown).toContain('[the setup](guide/setup.md)');
    expect(home.body.markdown).toContain('[proxy part](guide/setup.md#proxy)');
    expect(home.body.markdown).toContain('<img src=".gitbook/assets/logo.png" alt="Logo">');
    expect(home.body.markdown).toContain('{% file src=".gitbook/assets/sheet.csv" %}');
    const setup = await admin.api.get(`/spaces/${spaceId}/content/page/${setupId}`, { format: 'markdown' });
    expect(setup.body.markdown).toContain('![Logo](../.gitbook/assets/logo.png)');

    // The Markdown read, sent back: the references are the same.
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Round trip' });
    const back = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: homeId, document: { markdown: `${home.body.markdown}\n\nSee [setup](guide/setup.md).` } }],
    });
    expect(back.status).toBe(200);
    const doc = await admin.api.get(`/spaces/${spaceId}/change-requests/${cr.body.id}/content/page/${homeId}`, { format: 'document' });
    const nodes = doc.body.document.nodes;
    expect(nodes[0].nodes[1].data.ref).toEqual({ kind: 'page', page: setupId });
    expect(nodes[1].nodes[0].data.ref).toEqual({ kind: 'file', file: logoId });
    expect(nodes.at(-1).nodes[1].data.ref).toEqual({ kind: 'page', page: setupId });
  });

  it('get /spaces/{spaceId}/links reports references that resolve to nothing as broken, and bare URLs as links', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId } = await spaceWithReferences(admin);
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Links' });
    const written = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Links',
          document: { markdown: 'A [gone page](pag_01ABCDEFGHJKMN), [a wrong path](../nowhere.md), [the guide](guide.md), a bare https://example.org/docs and ![x](fil_01ABCDEFGHJKMN).' },
        },
      ],
    });
    expect(written.status).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const links = await admin.api.get(`/spaces/${spaceId}/links`);
    expect(links.status).toBe(200);
    const broken = links.body.items.filter((l: { status: string }) => l.status === 'broken').map((l: { targetReference: unknown }) => l.targetReference);
    expect(broken).toEqual(
      expect.arrayContaining([{ kind: 'page', page: 'pag_01ABCDEFGHJKMN' }, { kind: 'url', url: '../nowhere.md' }, { kind: 'file', file: 'fil_01ABCDEFGHJKMN' }]),
    );
    expect(broken).toHaveLength(3);
    const targets = links.body.items.map((l: { targetReference: { url?: string } }) => l.targetReference.url);
    expect(targets).toContain('https://example.org/docs');
  });

  it('the published site links to its own page URLs and serves the space\'s files at stable URLs of the site', async () => {
    const admin = await h.current.newAdmin();
    const { spaceId, logoId } = await spaceWithReferences(admin);
    const site = await newSite(admin, { title: 'Docs', spaces: [spaceId] });
    const url = (await publish(admin, site.id)).urls.published as string;
    const home = await open(h.current, url);
    expect(home.status).toBe(200);
    const links = hrefs(home.text);
    // The site space's pages are under its path on the site (the sidebar links to the home page there).
    const base = links.find((l) => l.endsWith('/home'))!.replace(/\/home$/, '');
    expect(base.startsWith(new URL(url).pathname.replace(/\/$/, ''))).toBe(true);
    expect(links).toContain(`${base}/guide/setup`);
    expect(links).toContain(`${base}/guide/setup#proxy`);
    expect(links).toContain('https://example.com/x');
    const img = /<img src="([^"]+)" alt="Logo">/.exec(home.text);
    expect(img?.[1]).toBe(`${base}/~files/${logoId}/logo.png`);
    expect(home.text).toContain('<figcaption>Our logo</figcaption>');
    expect(links.some((l) => l.includes('pag_') || l.includes('fil_') && !l.includes('/~files/'))).toBe(false);

    const origin = new URL(url).origin;
    const image = await open(h.current, `${origin}${img![1]}`);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.from(image.body).toString('base64')).toBe(png);
    expect(image.headers['cache-control']).toContain('public');
    // The setup page links to it too, as an image of the site.
    const setup = await open(h.current, `${origin}${base}/guide/setup`);
    expect(setup.status).toBe(200);
    expect(setup.text).toContain(`src="${base}/~files/${logoId}/logo.png"`);
    // A file no page refers to, or no file, is not served.
    expect((await open(h.current, `${origin}${base}/~files/fil_01ABCDEFGHJKMN/x.png`)).status).toBe(404);
  });
});
