// References on a published site in a real headless Chromium (test/support/browser.ts): a page whose
// Document links to another page by reference and shows an image uploaded in the same batch (by its
// `insert_files[].ref`). The browser loads the image from the site's own stable file URL, follows the link
// to the other page's URL on the site, and a screenshot goes to test-results/content-references.png.
// Skipped, saying why, where /usr/bin/chromium is absent.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium, useBrowser } from './support/browser.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { resultsDir } from './support/paths.js';
import { publish } from './published-support.js';
import { newSite } from './sites-support.js';

const h = useHarness();
const chrome = useBrowser(h, 'content references');

// A 4×4 orange PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEklEQVR4nGO4Y8mAhBhI4wIAmrMNAYSW5LcAAAAASUVORK5CYII=';

describe.skipIf(!hasChromium)('content references in Chromium', () => {
  it('loads an uploaded image from the site and follows a page link to the page on the site', { timeout: 120_000 }, async () => {
    const admin = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Guides' });
    expect(space.status).toBe(201);
    const cr = await admin.api.post(`/spaces/${space.body.id}/change-requests`, { subject: 'Write' });
    expect(cr.status).toBe(201);
    const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
    const home = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'paragraph', nodes: [text('Start with '), { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'setup' } }, nodes: [text('the setup')] }, text('.')] },
        { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [{ object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'logo' }, alt: 'Acme logo' }, fragments: [{ object: 'fragment', fragment: 'caption', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'The logo', marks: [] }] }] }] }] }] },
      ],
    };
    const written = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Home', document: { document: home } },
        { operation: 'insert_page', ref: 'setup', title: 'Setup', document: { markdown: '# Set it up\n\nPlug the robot in.' } },
        { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: png }] },
      ],
    });
    expect(written.status).toBe(200);
    expect((await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const site = await newSite(admin, { title: 'Acme Docs', spaces: [space.body.id] });
    const url = (await publish(admin, site.id)).urls.published.replace(PUBLIC_URL, chrome.publicUrl);

    const page = await chrome.browser.newPage({ viewport: { width: 1024, height: 700 } });
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    expect((await page.goto(url))?.status()).toBe(200);
    const image = page.getByRole('img', { name: 'Acme logo' });
    await image.waitFor();
    await expect(image.getAttribute('src')).resolves.toMatch(/\/~files\/fil_[0-9A-Z]+\/logo\.png$/);
    await page.waitForFunction(() => {
      const img = document.querySelector('article img') as HTMLImageElement | null;
      return img !== null && img.complete && img.naturalWidth === 4;
    });
    await expect(page.locator('article figcaption').textContent()).resolves.toBe('The logo');
    await page.screenshot({ path: path.join(resultsDir, 'content-references.png'), fullPage: true });

    await page.locator('article').getByRole('link', { name: 'the setup' }).click();
    await page.waitForURL(/\/setup$/);
    await expect(page.getByRole('heading', { name: 'Set it up' }).isVisible()).resolves.toBe(true);
    expect(failed).toEqual([]);
  });
});
