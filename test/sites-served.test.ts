// Published sites served as HTML: navigation, pages, Markdown sanitized, 404s, meta, sitemap and robots,
// customization, unpublishing.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { hrefs, open, publish, spaceWithPages } from './published-support.js';
import { newSite, newSpace, sitePath } from './sites-support.js';

const h = useHarness();

const guidePages = [
  { title: 'Introduction', ref: 'intro', description: 'What Acme does', markdown: '# Welcome\n\nAcme builds robots. See [the install guide](https://example.com/install).\n\n## Getting help\n\nAsk us.' },
  { title: 'Install', ref: 'install', markdown: '| OS | Command |\n|---|---|\n| Linux | `apt install acme` |\n\n```sh\nacme --version\n```' },
  { title: 'Configure', into: 'install', markdown: 'Set `ACME_HOME`.' },
  { title: 'Danger', markdown: '<script>alert(1)</script>\n\n[click](javascript:alert(1))\n\n<img src="x" onerror="alert(2)">\n\nSafe text.' },
];

async function docsSite(admin: Account, body: object = {}) {
  const guides = await spaceWithPages(admin, 'Guides', guidePages);
  const site = await newSite(admin, { title: 'Acme docs', spaces: [guides], ...body });
  return { site, guides };
}

describe('published site pages', () => {
  it('serves the first page at urls.published, with sidebar, title, description, anchors and next link', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const published = await publish(admin, site.id);
    expect(published.urls.published).toBe(`https://api.test.example/sites/${admin.organizationId}/${site.id}`);
    const res = await open(h.current, published.urls.published);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('<title>Introduction | Acme docs</title>');
    expect(res.text).toContain('<meta name="description" content="What Acme does">');
    expect(res.text).not.toContain('noindex');
    expect(res.text).toContain('<h2 id="getting-help">Getting help<a class="anchor"');
    expect(res.text).toContain('href="#getting-help"');
    const base = `/sites/${admin.organizationId}/${site.id}/guides`;
    expect(hrefs(res.text)).toEqual(expect.arrayContaining([`${base}/introduction`, `${base}/install`, `${base}/install/configure`, `${base}/danger`]));
    expect(res.text).toMatch(new RegExp(`<a href="${base}/install" rel="next">`));
    expect(res.text).toContain('href="https://example.com/install"');
  });

  it('serves each page at its path with previous and next, a table and a code block', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const url = (await publish(admin, site.id)).urls.published;
    const res = await open(h.current, `${url}/guides/install`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Install | Acme docs</title>');
    expect(res.text).toContain('<td>Linux</td>');
    expect(res.text).toContain('<code>apt install acme</code>');
    // Highlighted on the server (Shiki): the shell grammar colours the command.
    expect(res.text).toMatch(/<pre class="shiki[^"]*"[^>]*data-language="sh"><code><span class="line"><span style="color:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}">acme<\/span>/);
    expect(res.text).toMatch(/rel="prev">← Introduction/);
    expect(res.text).toMatch(/rel="next">→ Configure/);
    const nested = await open(h.current, `${url}/guides/install/configure`);
    expect(nested.status).toBe(200);
    expect(nested.text).toContain('<code>ACME_HOME</code>');
    expect(nested.text).toContain('aria-current="page">Configure');
  });

  it('never lets stored content run script: raw HTML, event handlers and javascript: links are removed', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const url = (await publish(admin, site.id)).urls.published;
    const res = await open(h.current, `${url}/guides/danger`);
    expect(res.status).toBe(200);
    const article = res.text.slice(res.text.indexOf('<article>'), res.text.indexOf('</article>'));
    expect(article).toContain('Safe text.');
    expect(article).not.toMatch(/<script|onerror|javascript:/i);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('answers an unknown page with the site 404 page, and an unknown site with a bare 404', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const url = (await publish(admin, site.id)).urls.published;
    const missing = await open(h.current, `${url}/guides/nope`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Page not found');
    expect(missing.text).toContain('Introduction'); // the site's navigation stays
    const unknown = await open(h.current, `https://api.test.example/sites/${admin.organizationId}/sit_nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).not.toContain('Acme');
    const otherOrg = await open(h.current, `https://api.test.example/sites/org_nope/${site.id}`);
    expect(otherOrg.status).toBe(404);
  });

  it('serves the same page by path on any host (its own path, or Express for a host that may be a site\'s), HEAD without a body, a malformed escape as the 404 page', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const url = (await publish(admin, site.id)).urls.published;
    const own = await open(h.current, `${url}/guides/install`);
    expect(own.status).toBe(200);
    // A host with a name a site may have, but no site's: custom hostnames pass it on to the path-based route.
    const elsewhere = await open(h.current, `${url.replace('api.test.example', 'docs.unclaimed.example')}/guides/install`);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.text).toBe(own.text);
    expect(elsewhere.headers['content-security-policy']).toBe(own.headers['content-security-policy']);
    const head = await request(h.current.app).head(`${new URL(url).pathname}/guides/install`).set('Host', 'api.test.example');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(own.text));
    const malformed = await open(h.current, `${url}/guides/%E0%A4%A`);
    expect(malformed.status).toBe(404);
    expect(malformed.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('says what is missing on a site that publishes no space, and on a space with no pages', async () => {
    const admin = await h.current.newAdmin();
    const bare = await newSite(admin, { title: 'Bare docs' });
    const bareRes = await open(h.current, (await publish(admin, bare.id)).urls.published);
    expect(bareRes.status).toBe(404);
    expect(bareRes.text).toContain('this part of the site publishes no space you may read');
    const empty = await newSpace(admin, 'Empty');
    const site = await newSite(admin, { title: 'Empty docs', spaces: [empty] });
    const emptyRes = await open(h.current, (await publish(admin, site.id)).urls.published);
    expect(emptyRes.status).toBe(404);
    expect(emptyRes.text).toContain('This space has no pages.');
  });

  it('lists indexable pages in sitemap.xml and allows robots for a public site; an unlisted one is not indexed', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const url = (await publish(admin, site.id)).urls.published;
    const map = await open(h.current, `${url}/sitemap.xml`);
    expect(map.status).toBe(200);
    expect(map.headers['content-type']).toContain('xml');
    expect(map.text).toContain(`<loc>${url}/guides/introduction</loc>`);
    expect(map.text).toContain(`<loc>${url}/guides/install/configure</loc>`);
    const robots = await open(h.current, `${url}/robots.txt`);
    expect(robots.text).toContain('Allow: /');
    expect(robots.text).toContain(`Sitemap: ${url}/sitemap.xml`);

    const patched = await admin.api.patch(sitePath(admin, site.id), { visibility: 'unlisted' });
    expect(patched.status).toBe(200);
    const page = await open(h.current, url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta name="robots" content="noindex">');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect((await open(h.current, `${url}/robots.txt`)).text).toContain('Disallow: /');
    expect((await open(h.current, `${url}/sitemap.xml`)).text).not.toContain('<loc>');
  });

  it('applies the stored customization: title, colours, logo and favicon', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const url = (await publish(admin, site.id)).urls.published;
    const custom = {
      title: 'Acme Robotics Docs',
      styling: { primaryColor: { light: '#ff0066', dark: '#00ff99' }, tint: { color: { light: '#123456', dark: '#654321' } } },
      header: { logo: { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo-dark.png' } },
      favicon: { icon: { light: 'https://cdn.example.com/icon.png', dark: 'https://cdn.example.com/icon-dark.png' } },
      footer: { copyright: '© Acme' },
    };
    const put = await admin.api.put(`${sitePath(admin, site.id)}/customization`, custom);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.title).toBe('Acme Robotics Docs');
    expect(put.body.styling.primaryColor).toEqual({ light: '#ff0066', dark: '#00ff99' });
    expect(put.body.styling.theme).toBe('clean'); // defaults filled in
    const got = await admin.api.get(`${sitePath(admin, site.id)}/customization`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(put.body);
    const profile = await admin.api.get(`${sitePath(admin, site.id)}/published`);
    expect(profile.body.customizations.site.title).toBe('Acme Robotics Docs');

    const res = await open(h.current, url);
    expect(res.text).toContain('<title>Introduction | Acme Robotics Docs</title>');
    expect(res.text).toContain('--primary:#ff0066');
    expect(res.text).toContain('--primary:#00ff99');
    expect(res.text).toContain('--tint:#123456');
    expect(res.text).toContain('<img class="logo-light" src="https://cdn.example.com/logo.png"');
    expect(res.text).toContain('<link rel="icon" href="https://cdn.example.com/icon.png" media="(prefers-color-scheme: light)">');
    expect(res.text).toContain('<link rel="icon" href="https://cdn.example.com/icon-dark.png" media="(prefers-color-scheme: dark)">');
    expect(res.text).toContain('© Acme');

    // A full replacement: what is left out takes its default again.
    const reset = await admin.api.put(`${sitePath(admin, site.id)}/customization`, {});
    expect(reset.body.title).toBe('Acme docs');
    expect((await open(h.current, url)).text).toContain('--primary:#346DDB');
  });

  it('refuses customization colours that are not hex and images that are not http(s), naming the field', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const badColor = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { primaryColor: { light: 'red;}</style><script>', dark: '#000' } } });
    expect(badColor.status).toBe(400);
    expect(badColor.body.error.message).toContain('body.styling.primaryColor.light');
    const badLogo = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { header: { logo: { light: 'javascript:alert(1)', dark: 'https://x.example/a.png' } } });
    expect(badLogo.status).toBe(400);
    expect(badLogo.body.error.message).toContain('body.header.logo.light');
    expect((await admin.api.put(`${sitePath(admin, 'sit_nope')}/customization`, {})).status).toBe(404);
    expect((await admin.api.get(`${sitePath(admin, 'sit_nope')}/customization`)).status).toBe(404);
  });

  it('takes the site down at once when it is unpublished or deleted, and back up when published again', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const url = (await publish(admin, site.id)).urls.published;
    expect((await open(h.current, url)).status).toBe(200);
    const off = await admin.api.post(`${sitePath(admin, site.id)}/unpublish`);
    expect(off.status).toBe(200);
    expect(off.body.published).toBe(false);
    expect(off.body.urls.published).toBeUndefined();
    expect((await admin.api.post(`${sitePath(admin, site.id)}/unpublish`)).body.published).toBe(false);
    const down = await open(h.current, `${url}/guides/install`);
    expect(down.status).toBe(404);
    expect(down.text).not.toContain('Install');
    expect((await admin.api.get(`${sitePath(admin, site.id)}/published`)).status).toBe(404);
    expect((await admin.api.post(`${sitePath(admin, 'sit_nope')}/unpublish`)).status).toBe(404);
    await publish(admin, site.id);
    expect((await open(h.current, url)).status).toBe(200);
    expect((await admin.api.delete(sitePath(admin, site.id))).status).toBe(204);
    expect((await open(h.current, url)).status).toBe(404);
  });

  it('shows sections as navigation and site spaces as variants, each at its published URL', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin, { title: 'Acme docs' });
    const guides = await spaceWithPages(admin, 'Guides', [{ title: 'Start', markdown: 'Start here.' }]);
    const api = await spaceWithPages(admin, 'API v1', [{ title: 'Endpoints', markdown: 'GET /robots' }]);
    const apiV2 = await spaceWithPages(admin, 'API v2', [{ title: 'Endpoints v2', markdown: 'GET /v2/robots' }]);
    const s1 = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: guides, title: 'Guides' });
    const s2 = await admin.api.post(`${sitePath(admin, site.id)}/sections`, { spaceId: api, title: 'API' });
    expect(s2.status).toBe(200);
    const v2 = await admin.api.post(`${sitePath(admin, site.id)}/site-spaces`, { spaceId: apiV2, sectionId: s2.body.id });
    expect(v2.status).toBe(200);
    const url = (await publish(admin, site.id)).urls.published;
    const sections = await admin.api.get(`${sitePath(admin, site.id)}/sections`);
    const [guidesSection, apiSection] = sections.body.items;
    expect(guidesSection.id).toBe(s1.body.id);
    const home = await open(h.current, url);
    expect(home.status).toBe(200);
    expect(home.text).toContain('Start here.');
    expect(home.text).toContain(`href="${new URL(apiSection.urls.published).pathname}">API</a>`);
    for (const section of sections.body.items) expect((await open(h.current, section.urls.published)).status).toBe(200);
    const spaces = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`);
    for (const siteSpace of spaces.body.items) {
      const page = await open(h.current, siteSpace.urls.published);
      expect(page.status, siteSpace.urls.published).toBe(200);
    }
    const v2Published = spaces.body.items.find((s: { id: string }) => s.id === v2.body.id).urls.published;
    expect(v2Published).toBe(`${url}/api/api-v2`);
    const v2Page = await open(h.current, v2Published);
    expect(v2Page.text).toContain('GET /v2/robots');
    expect(v2Page.text).toMatch(/<div class="variants">.*API v1.*API v2/s);
  });

  it('searches the site space being read from the search box, linking to the published pages', async () => {
    const admin = await h.current.newAdmin();
    const { site } = await docsSite(admin);
    const url = (await publish(admin, site.id)).urls.published;
    const res = await open(h.current, `${url}/~search?q=robots`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    expect(res.text).toContain(`href="${new URL(url).pathname}/guides/introduction`);
    expect(res.text).toMatch(/1 page of Guides match/);
    const none = await open(h.current, `${url}/~search?q=zeppelin`);
    expect(none.status).toBe(200);
    expect(none.text).toContain('No page of Guides matches');
    expect((await open(h.current, `${url}/~search`)).text).toContain('Type words to look for');
  });
});
