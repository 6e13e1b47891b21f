// The customization is rendered: the announcement, header links (by condition) and footer groups, themes,
// pagination and the social preview; a page whose content opens with its title shows it once.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { enableAdaptiveContent, newSite, signVisitorToken, sitePath } from './sites-support.js';

const h = useHarness();
const url = (href: string) => ({ kind: 'url', url: href });

describe('customization rendered', () => {
  it('shows the announcement, the header links the reader may see, the footer groups and the social preview', async () => {
    const admin = await h.current.newAdmin();
    const guides = await spaceWithPages(admin, 'Guides', [
      { title: 'Start', markdown: 'First page.' },
      { title: 'Install', markdown: '# Install\n\nSecond page.' },
    ]);
    const site = await newSite(admin, { title: 'Acme docs', spaces: [guides] });
    await enableAdaptiveContent(admin, site.id);
    const custom = await admin.api.put(`${sitePath(admin, site.id)}/customization`, {
      announcement: { enabled: true, message: 'Version 3 is out.', style: 'warning', link: { title: 'Read the notes', to: url('https://acme.example.com/v3') } },
      header: {
        links: [
          { title: 'Status', to: url('https://status.acme.example.com') },
          { title: 'Beta program', to: url('https://acme.example.com/beta'), condition: 'visitor.claims.isBetaUser' },
          { title: 'Guides home', to: { kind: 'space', space: guides }, style: 'button-primary' },
          { title: 'Bad', to: url('javascript:alert(1)') },
        ],
      },
      footer: { groups: [{ title: 'Company', links: [{ title: 'About', to: url('https://acme.example.com/about') }] }], copyright: '© Acme' },
      socialPreview: { url: 'https://cdn.acme.example.com/preview.png' },
      themes: { default: 'dark', toggeable: false },
      pagination: { enabled: false },
    });
    expect(custom.status).toBe(200);
    const published = (await publish(admin, site.id)).urls.published;

    const page = await open(h.current, `${published}/guides/start`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<div class="announcement announcement-warning" role="note">Version 3 is out\.<a href="https:\/\/acme\.example\.com\/v3">Read the notes<\/a><\/div>/);
    expect(page.text).toContain('<a href="https://status.acme.example.com">Status</a>');
    expect(page.text).toContain(`<a href="/sites/${admin.organizationId}/${site.id}/guides" class="button">Guides home</a>`);
    expect(page.text).not.toContain('Beta program');
    expect(page.text).not.toContain('javascript:');
    expect(page.text).toContain('<strong>Company</strong><ul><li><a href="https://acme.example.com/about">About</a></li></ul>');
    expect(page.text).toContain('<meta property="og:image" content="https://cdn.acme.example.com/preview.png">');
    expect(page.text).toContain(`<meta property="og:url" content="${published}/guides/start">`);
    // Dark by default, the reader's preference not followed; no previous/next links.
    expect(page.text).toContain('<meta name="color-scheme" content="dark">');
    expect(page.text).toMatch(/:root\{--primary:#346DDB;--tint:#346DDB;--link:#[0-9a-f]{6};--on-primary:#[0-9a-f]{6};--fg:#e8eaed/);
    expect(page.text).not.toContain('prefers-color-scheme');
    expect(page.text).not.toContain('rel="next"');

    // A beta reader sees the conditional link.
    const key = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
    const entry = await open(h.current, `${published}/guides/start?jwt_token=${await signVisitorToken({ isBetaUser: true }, key)}`);
    const beta = await open(h.current, `${published}/guides/start`, entry.headers['set-cookie'] as unknown as string[]);
    expect(beta.text).toContain('<a href="https://acme.example.com/beta">Beta program</a>');

    // The title is shown once when the content opens with it.
    const install = await open(h.current, `${published}/guides/install`);
    expect(install.status).toBe(200);
    expect(install.text.match(/<h1[ >]/g)).toHaveLength(1);
    expect(install.text).toContain('Second page.');
    expect(page.text.match(/<h1[ >]/g)).toHaveLength(1);
  });

  it('by default follows the reader\'s light or dark preference and shows the pager', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin, { spaces: [await spaceWithPages(admin, 'Guides', [{ title: 'A', markdown: 'a' }, { title: 'B', markdown: 'b' }])] });
    const page = await open(h.current, `${(await publish(admin, site.id)).urls.published}/guides/a`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta name="color-scheme" content="light dark">');
    expect(page.text).toContain('@media (prefers-color-scheme:dark)');
    expect(page.text).toContain('rel="next"');
    expect(page.text).not.toContain('class="announcement');
  });
});
