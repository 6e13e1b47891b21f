// A docs front end of its own, walking our API as GitBook's renderer does (issue 41): resolve the URL a reader
// asked for on a visitor-auth site (with the reader's visitor token), then, with the short-lived token the
// resolution hands out, read the page by path in the resolved revision, its document, a file it shows and
// the site's customization, and compare each with what our own published site serves for the same URL.
import { describe, expect, it } from 'vitest';
import { apiClient } from './support/api.js';
import { useHarness } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { mergeChanges, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();

// A 1×1 PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The text of a Document's leaves, in order. */
function textOf(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const n = node as { text?: string; leaves?: { text: string }[]; nodes?: unknown[] };
  if (n.leaves) return n.leaves.map((l) => l.text).join('');
  return (n.nodes ?? []).map(textOf).join(' ');
}

describe('a renderer of its own', () => {
  it('resolves a visitor-auth URL with the reader\'s token, reads the page, its document, its image and the customization, as our site serves them', async () => {
    const admin = await h.current.newAdmin();
    const renderer = await h.current.newAdmin(); // the front end's own account, of another organization
    const space = await spaceWithPages(admin, 'Guides', [{ title: 'Welcome', markdown: 'Welcome, reader.' }]);
    await mergeChanges(admin, space, [
      { operation: 'insert_files', files: [{ ref: 'diagram', name: 'diagram.png', contentType: 'image/png', base64: png }] },
      {
        operation: 'insert_page',
        title: 'Setup',
        document: {
          document: {
            object: 'document',
            data: {},
            nodes: [
              { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Install the agent, then restart it.', marks: [] }] }] },
              { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'diagram' }, alt: 'The diagram' }, fragments: [] }] },
            ],
          },
        },
      },
    ]);
    const site = await newSite(admin, { title: 'Docs', spaces: [space], visibility: 'visitor-auth' });
    const customized = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { primaryColor: { light: '#D93F0B', dark: '#F26B3A' } } });
    expect(customized.status).toBe(200);
    const url: string = (await publish(admin, site.id)).urls.published;
    const auth = await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`);
    expect(auth.status).toBe(200);
    const visitorToken = await signVisitorToken({ sub: 'reader-1' }, auth.body.privateKey);

    // What our own site serves the reader for that URL.
    const entry = await open(h.current, `${url}/guides/setup?jwt_token=${visitorToken}`);
    expect(entry.status).toBe(302);
    const served = await open(h.current, `${url}/guides/setup`, entry.headers['set-cookie'] as unknown as string[]);
    expect(served.status).toBe(200);

    // 1. Resolve, as the renderer does with its own token and the reader's visitor token.
    const resolved = await renderer.api.get('/urls/published', { url: `${url}/guides/setup`, visitorAuthToken: visitorToken });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body).toMatchObject({ site: site.id, space, pathname: 'setup' });
    const reader = apiClient(h.current.app, resolved.body.apiToken);

    // 2. The page by its path in the resolved revision: the page the site shows at that URL.
    const page = await reader.get(`/spaces/${space}/revisions/${resolved.body.revision}/path/${encodeURIComponent(resolved.body.pathname)}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.id).toBe(resolved.body.page);
    expect(page.body.title).toBe('Setup');
    expect(served.text).toContain('<title>Setup');

    // 3. Its document: the text the site shows, and a reference to the image file.
    const document = await reader.get(`/spaces/${space}/revisions/${resolved.body.revision}/page/${page.body.id}/document`);
    expect(document.status).toBe(200);
    expect(textOf(document.body)).toContain('Install the agent, then restart it.');
    expect(served.text).toContain('Install the agent, then restart it.');
    const image = JSON.stringify(document.body).match(/"file":"(fil_[0-9A-Za-z]+)"/);
    expect(image).not.toBeNull();
    const fileId = image![1];

    // 4. The file: what the renderer downloads is the image our site shows, byte for byte.
    const file = await reader.get(`/spaces/${space}/revisions/${resolved.body.revision}/files/${fileId}`);
    expect(file.status).toBe(200);
    expect(file.body).toMatchObject({ id: fileId, name: 'diagram.png', contentType: 'image/png' });
    const download = await open(h.current, file.body.downloadURL);
    expect(download.status).toBe(200);
    const siteImage = served.text.match(new RegExp(`src="([^"]*/~files/${fileId}/diagram\\.png)"`));
    expect(siteImage).not.toBeNull();
    const shown = await open(h.current, new URL(siteImage![1], url).toString(), entry.headers['set-cookie'] as unknown as string[]);
    expect(shown.status).toBe(200);
    expect(Buffer.from(download.body as Buffer).equals(Buffer.from(png, 'base64'))).toBe(true);
    expect(Buffer.from(shown.body as Buffer).equals(Buffer.from(png, 'base64'))).toBe(true);

    // 5. The site's customization: the colour our site paints with.
    const customization = await reader.get(`${sitePath(admin, site.id)}/customization`);
    expect(customization.status).toBe(200);
    expect(customization.body.styling.primaryColor).toEqual({ light: '#D93F0B', dark: '#F26B3A' });
    expect(served.text.toLowerCase()).toContain('#d93f0b');

    // Without the reader's visitor token, the renderer learns nothing of the site.
    const refused = await renderer.api.get('/urls/published', { url: `${url}/guides/setup` });
    expect(refused.status).toBe(404);
  });
});
