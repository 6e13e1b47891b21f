// What a published site gives AI agents and search engines: agentsContext decides the robots rules of the
// known AI crawlers, whether those crawlers are served at all, and whether each page's Markdown
// (`<page URL>.md`) and the `llms.txt` index are offered; noIndex keeps a page out of the site's search,
// sitemap and llms.txt; an unlisted site stays out of indexes.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { mergeChanges, newSite, sitePath } from './sites-support.js';

const h = useHarness();
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
});
