// What a published site gives AI agents and search engines: agentsContext decides the robots rules of the
// known AI crawlers, whether those crawlers are served at all, and whether each page's Markdown
// (`<page URL>.md`) and the `llms.txt` index are offered; noIndex keeps a page out of the site's search,
// sitemap and llms.txt; an unlisted site stays out of indexes.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { mergeChanges, newSite, sitePath } from './sites-support.js';

const h = useHarness();

// A 1×1 PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
const link = (ref: unknown, label: string) => ({ object: 'inline', type: 'link', data: { ref }, nodes: [text(label)] });
const mention = (ref: object) => ({ object: 'inline', type: 'mention', isVoid: true, data: { ref } });
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

async function agentSite(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [
    { title: 'Introduction', ref: 'intro', description: 'What Acme does', markdown: 'Acme builds **robots**.\n\n## Getting help\n\nAsk us.' },
    { title: 'Install', ref: 'install', markdown: '# Install\n\nAcme installs with `acme install` (needs root).' },
    { title: 'Configure', into: 'install', markdown: 'Set `ACME_HOME`.' },
  ]);
  const site = await newSite(admin, { title: 'Acme docs', spaces: [space] });
  const url: string = (await publish(admin, site.id)).urls.published;
  return { space, site, url };
}

describe('agents', () => {
  it('with agentsContext included: each page as Markdown at <page URL>.md, and an llms.txt whose every link answers', async () => {
    const admin = await h.current.newAdmin();
    const { url } = await agentSite(admin);

    const intro = await open(h.current, `${url}/guides/introduction.md`);
    expect(intro.status).toBe(200);
    expect(intro.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(intro.text).toBe('# Introduction\n\n> What Acme does\n\nAcme builds **robots**.\n\n## Getting help\n\nAsk us.\n');
    // A page whose content opens with its title keeps one heading.
    const install = await open(h.current, `${url}/guides/install.md`);
    expect(install.status).toBe(200);
    expect(install.text).toBe('# Install\n\nAcme installs with `acme install` (needs root).\n');
    expect((await open(h.current, `${url}/guides/install/configure.md`)).text).toContain('Set `ACME_HOME`.');
    expect((await open(h.current, `${url}/guides/nothing-here.md`)).status).toBe(404);

    const llms = await open(h.current, `${url}/llms.txt`);
    expect(llms.status).toBe(200);
    expect(llms.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(llms.text).toBe(
      [
        '# Acme docs',
        '',
        '## Guides',
        '',
        `- [Introduction](${url}/guides/introduction.md): What Acme does`,
        `- [Install](${url}/guides/install.md)`,
        `- [Configure](${url}/guides/install/configure.md)`,
        '',
      ].join('\n'),
    );
    for (const link of llms.text.matchAll(/\]\(([^)]+)\)/g)) {
      const res = await open(h.current, link[1]);
      expect(res.status, link[1]).toBe(200);
    }
    const robots = await open(h.current, `${url}/robots.txt`);
    expect(robots.text).toBe(`User-agent: *\nAllow: /\nSitemap: ${url}/sitemap.xml\n`);
    const page = await open(h.current, `${url}/guides/introduction`).set('User-Agent', GPTBOT);
    expect(page.status).toBe(200);
  });

  it('with agentsContext excluded: robots.txt disallows the AI crawlers, which get 403, and no Markdown or llms.txt is offered', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await agentSite(admin);
    const patched = await admin.api.patch(sitePath(admin, site.id), { agentsContext: 'excluded' });
    expect(patched.status).toBe(200);
    expect(patched.body.agentsContext).toBe('excluded');

    const robots = await open(h.current, `${url}/robots.txt`);
    expect(robots.status).toBe(200);
    for (const agent of ['GPTBot', 'ChatGPT-User', 'ClaudeBot', 'Google-Extended', 'PerplexityBot', 'CCBot']) {
      expect(robots.text).toContain(`User-agent: ${agent}\n`);
    }
    expect(robots.text).toMatch(/User-agent: omgili\nDisallow: \/\n\nUser-agent: \*\nAllow: \/\nSitemap: /);

    const crawler = await open(h.current, `${url}/guides/introduction`).set('User-Agent', GPTBOT);
    expect(crawler.status).toBe(403);
    expect(crawler.text).not.toContain('robots');
    const claude = await open(h.current, url).set('User-Agent', 'Claude-User/1.0 (+https://www.anthropic.com)');
    expect(claude.status).toBe(403);
    const reader = await open(h.current, `${url}/guides/introduction`).set('User-Agent', BROWSER);
    expect(reader.status).toBe(200);
    expect(reader.text).toContain('robots');
    expect((await open(h.current, `${url}/guides/introduction.md`).set('User-Agent', BROWSER)).status).toBe(404);
    expect((await open(h.current, `${url}/llms.txt`).set('User-Agent', BROWSER)).status).toBe(404);

    // Included again: offered again.
    expect((await admin.api.patch(sitePath(admin, site.id), { agentsContext: 'included' })).status).toBe(200);
    expect((await open(h.current, `${url}/guides/introduction.md`)).status).toBe(200);
    expect((await open(h.current, `${url}/guides/introduction`).set('User-Agent', GPTBOT)).status).toBe(200);
  });
});

describe('indexing', () => {
  it('a noIndex page stays readable at its URL but is out of the site search, the sitemap and llms.txt', async () => {
    const admin = await h.current.newAdmin();
    const { space, url } = await agentSite(admin);
    const pages = await admin.api.get(`/spaces/${space}/content/pages`);
    expect(pages.status).toBe(200);
    const install = pages.body.pages.find((p: { title: string }) => p.title === 'Install');
    const results = async () => {
      const search = await open(h.current, `${url}/~search?q=acme`);
      expect(search.status).toBe(200);
      return /<ul class="results">(.*?)<\/ul>/s.exec(search.text)?.[1] ?? '';
    };
    expect(await results()).toContain('>Install</a>');
    await mergeChanges(admin, space, [{ operation: 'update_page', page: install.id, noIndex: true }]);

    const page = await open(h.current, `${url}/guides/install`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta name="robots" content="noindex">');
    const after = await results();
    expect(after).toContain('>Introduction</a>');
    expect(after).not.toContain('>Install</a>');
    const sitemap = await open(h.current, `${url}/sitemap.xml`);
    expect(sitemap.text).toContain(`<loc>${url}/guides/introduction</loc>`);
    expect(sitemap.text).not.toContain(`<loc>${url}/guides/install</loc>`);
    const llms = await open(h.current, `${url}/llms.txt`);
    expect(llms.text).toContain('[Introduction]');
    expect(llms.text).not.toContain('[Install]');
  });

  it('an unlisted site is kept out of indexes: robots.txt disallows all, the sitemap is empty, every answer says noindex', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await agentSite(admin);
    expect((await admin.api.patch(sitePath(admin, site.id), { visibility: 'unlisted' })).status).toBe(200);
    const robots = await open(h.current, `${url}/robots.txt`);
    expect(robots.text).toBe('User-agent: *\nDisallow: /\n');
    const sitemap = await open(h.current, `${url}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.text).not.toContain('<loc>');
    for (const path of ['', '/guides/install', '/guides/install.md', '/llms.txt']) {
      const res = await open(h.current, `${url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers['x-robots-tag'], path).toBe('noindex');
    }
  });

  it("a page's Markdown writes its references for the site: pages as their .md URLs, files at the site's file URLs, spaces at their site URL, users by name; the API's markdown format keeps relative paths", async () => {
    const admin = await h.current.newAdmin();
    const me = await admin.api.get('/user');
    expect(me.status).toBe(200);
    const sister = await spaceWithPages(admin, 'Sister', [{ title: 'Start', markdown: 'Sister start.' }]);
    const stranger = await h.current.newAdmin();
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Guides' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;
    const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Write' });
    expect(cr.status).toBe(201);
    const home = {
      object: 'document',
      data: {},
      nodes: [
        paragraph(
          text('Read '),
          link({ kind: 'page', page: 'setup' }, 'the setup'),
          text(', its '),
          link({ kind: 'anchor', page: 'setup', anchor: 'proxy' }, 'proxy part'),
          text(', '),
          link({ kind: 'space', space: sister }, 'the sister space'),
          text(', '),
          link({ kind: 'file', file: 'sheet' }, 'the sheet'),
          text('. Ask '),
          mention({ kind: 'user', user: admin.userId }),
          text(' or '),
          mention({ kind: 'user', user: stranger.userId }),
          text('.'),
        ),
      ],
    };
    const written = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', ref: 'home', title: 'Home', slug: 'home', document: { document: home } },
        { operation: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', document: { markdown: 'The guide.' } },
        { operation: 'insert_page', ref: 'setup', into: 'guide', title: 'Setup', slug: 'setup', document: { markdown: '# Setup\n\n## Proxy\n\nSet it.' } },
        { operation: 'insert_files', files: [{ ref: 'sheet', name: 'sheet.csv', contentType: 'text/csv', base64: Buffer.from('a,b\n').toString('base64') }, { ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: png }] },
      ],
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const homeId = written.body.changes[0].page.id as string;
    const files = await admin.api.get(`/spaces/${spaceId}/content/files`);
    expect(files.status).toBe(200);
    const sheetId = files.body.items.find((f: { name: string }) => f.name === 'sheet.csv').id as string;

    // The API's markdown first, so a shared cache would hand it to the site.
    const api = await admin.api.get(`/spaces/${spaceId}/content/page/${homeId}`, { format: 'markdown' });
    expect(api.status).toBe(200);
    expect(api.body.markdown).toContain('[the setup](guide/setup.md)');
    expect(api.body.markdown).toContain('[proxy part](guide/setup.md#proxy)');
    expect(api.body.markdown).toContain(sister);
    expect(api.body.markdown).toContain(admin.userId);

    const site = await newSite(admin, { title: 'Docs', spaces: [spaceId, sister] });
    const url: string = (await publish(admin, site.id)).urls.published;
    const siteSpaces = (await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`)).body.items as { path: string; space: { id: string } }[];
    const guidesUrl = `${url}/${siteSpaces.find((s) => s.space.id === spaceId)!.path}`;
    const sisterUrl = `${url}/${siteSpaces.find((s) => s.space.id === sister)!.path}`;

    const md = await open(h.current, `${guidesUrl}/home.md`);
    expect(md.status).toBe(200);
    expect(md.text).toContain(`[the setup](${guidesUrl}/guide/setup.md)`);
    expect(md.text).toContain(`[proxy part](${guidesUrl}/guide/setup.md#proxy)`);
    expect(md.text).toContain(`[the sister space](${sisterUrl})`);
    expect(md.text).toContain(`[the sheet](${guidesUrl}/~files/${sheetId}/sheet.csv)`);
    expect(md.text).toContain(`Ask ${me.body.displayName} or unknown user.`);
    for (const id of [sister, admin.userId, stranger.userId]) expect(md.text).not.toContain(id);
    expect(md.text).not.toContain('.gitbook/assets');
    // Every link of the Markdown answers on the site.
    for (const found of md.text.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)) {
      const res = await open(h.current, found[1]);
      expect([200, 302], found[1]).toContain(res.status);
    }
    const setupMd = await open(h.current, `${guidesUrl}/guide/setup.md`);
    expect(setupMd.status).toBe(200);
    expect(setupMd.headers['content-type']).toBe('text/markdown; charset=utf-8');

    // And the API's markdown, asked again, is still its own.
    const again = await admin.api.get(`/spaces/${spaceId}/content/page/${homeId}`, { format: 'markdown' });
    expect(again.status).toBe(200);
    expect(again.body.markdown).toBe(api.body.markdown);
    expect(again.body.markdown).not.toContain(url);
  });
});

