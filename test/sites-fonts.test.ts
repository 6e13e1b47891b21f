// The site's fonts (customization `styling.font`, `styling.monospaceFont`) render on its pages from font files
// this server serves itself, at `<site URL>/~fonts/<package>-<weight>.woff2` (the latin cut of an
// `@fontsource/*` package, OFL fonts only), named by `@font-face` rules before a system stack of the same
// kind; the page's policy allows fonts from its own origin only, and nothing points at a font CDN
// (server/published/fonts.ts, font-files.ts).
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();

/** The page's inline style sheet. */
const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';

/** The `@font-face` rules of a style sheet: each family, weight and URL. */
const faces = (css: string) =>
  [...css.matchAll(/@font-face\{font-family:"([^"]+)";font-style:normal;font-weight:(\d+);font-display:swap;src:url\("([^"]+)"\) format\("woff2"\);unicode-range:U\+0000-00FF[^}]*\}/g)].map(
    ([, family, weight, url]) => ({ family, weight: Number(weight), url }),
  );

async function siteWithCode(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [{ title: 'Start', markdown: 'Run `npm start`.' }]);
  const site = await newSite(admin, { title: 'Typed docs', spaces: [space] });
  const url: string = (await publish(admin, site.id)).urls.published;
  return { site, url };
}

/** The page loads fonts from its own site only: no font CDN, no style sheet to import, fonts from 'self'. */
function loadsOwnFontsOnly(page: { text: string; headers: Record<string, string> }, siteUrl: string) {
  const css = styleOf(page.text);
  expect(css).not.toMatch(/@import/i);
  expect(page.text).not.toMatch(/<link[^>]+stylesheet/i);
  expect(page.text).not.toMatch(/fonts\.(googleapis|gstatic)|fontsource|typekit|cdn/i);
  const sitePathname = new URL(siteUrl).pathname;
  for (const face of faces(css)) expect(face.url.startsWith(`${sitePathname}/~fonts/`), face.url).toBe(true);
  expect(String(page.headers['content-security-policy'])).toContain("font-src 'self'");
}

/** Each URL answers the font file: 200, font/woff2, WOFF2 bytes, cacheable for a year. */
async function expectFontFiles(siteUrl: string, urls: string[]) {
  const origin = new URL(siteUrl).origin;
  for (const url of urls) {
    const file = await open(h.current, `${origin}${url}`).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(file.status, url).toBe(200);
    expect(file.headers['content-type']).toBe('font/woff2');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const bytes = file.body as Buffer;
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2'); // the WOFF2 signature
    expect(bytes.length).toBe(Number(file.headers['content-length']));
    expect(bytes.length).toBeGreaterThan(5_000);
  }
}

describe('site fonts', () => {
  it('serve the default fonts (Inter, IBM Plex Mono) from the site itself, before their system stacks', async () => {
    const admin = await h.current.newAdmin();
    const { url } = await siteWithCode(admin);
    const page = await open(h.current, `${url}/guides/start`);
    expect(page.status).toBe(200);
    const css = styleOf(page.text);
    expect(css).toContain('--font:"Inter",system-ui,');
    expect(css).toContain('--mono:"IBM Plex Mono",ui-monospace,');
    expect(css).toContain('body{margin:0;font:16px/1.6 var(--font);');
    expect(css).toContain('code{font-family:var(--mono);');
    expect(page.text).toContain('<code>npm start</code>');
    const site = new URL(url).pathname;
    expect(faces(css)).toEqual([
      { family: 'Inter', weight: 400, url: `${site}/~fonts/inter-400.woff2` },
      { family: 'Inter', weight: 600, url: `${site}/~fonts/inter-600.woff2` },
      { family: 'Inter', weight: 700, url: `${site}/~fonts/inter-700.woff2` },
      { family: 'IBM Plex Mono', weight: 400, url: `${site}/~fonts/ibm-plex-mono-400.woff2` },
      { family: 'IBM Plex Mono', weight: 700, url: `${site}/~fonts/ibm-plex-mono-700.woff2` },
    ]);
    loadsOwnFontsOnly(page, url);
    await expectFontFiles(url, faces(css).map((f) => f.url));
  });

  it("follow the customization's fonts from the next request, their files served, with a stack of the same kind", async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await siteWithCode(admin);
    const custom = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { font: 'Merriweather', monospaceFont: 'JetBrainsMono' } });
    expect(custom.status, JSON.stringify(custom.body)).toBe(200);
    expect(custom.body.styling).toMatchObject({ font: 'Merriweather', monospaceFont: 'JetBrainsMono' });
    const page = await open(h.current, `${url}/guides/start`);
    expect(page.status).toBe(200);
    const css = styleOf(page.text);
    expect(css).toContain('--font:"Merriweather",Georgia,');
    expect(css).toMatch(/--font:[^;]*,serif;/);
    expect(css).toContain('--mono:"JetBrains Mono",ui-monospace,');
    expect(css).toMatch(/--mono:[^;}]*,monospace[;}]/);
    const site_ = new URL(url).pathname;
    expect(faces(css).map((f) => `${f.family} ${f.weight} ${f.url}`)).toEqual([
      `Merriweather 400 ${site_}/~fonts/merriweather-400.woff2`,
      `Merriweather 600 ${site_}/~fonts/merriweather-600.woff2`,
      `Merriweather 700 ${site_}/~fonts/merriweather-700.woff2`,
      `JetBrains Mono 400 ${site_}/~fonts/jetbrains-mono-400.woff2`,
      `JetBrains Mono 700 ${site_}/~fonts/jetbrains-mono-700.woff2`,
    ]);
    loadsOwnFontsOnly(page, url);
    await expectFontFiles(url, faces(css).map((f) => f.url));
    // HEAD: the headers alone.
    const head = await request(h.current.app).head(`${site_}/~fonts/merriweather-700.woff2`).set('Host', new URL(url).host);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('font/woff2');

    // A family without 600 (Lato) gets its 400 and 700; Source Sans Pro is served as Source Sans 3.
    const lato = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { font: 'Lato', monospaceFont: 'SourceCodePro' } });
    expect(lato.status).toBe(200);
    const again = await open(h.current, `${url}/guides/start`);
    expect(again.status).toBe(200);
    expect(faces(styleOf(again.text)).map((f) => `${f.family} ${f.weight}`)).toEqual(['Lato 400', 'Lato 700', 'Source Code Pro 400', 'Source Code Pro 700']);
    await expectFontFiles(url, faces(styleOf(again.text)).map((f) => f.url));
    const sourceSans = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { font: 'SourceSansPro' } });
    expect(sourceSans.status).toBe(200);
    const third = await open(h.current, `${url}/guides/start`);
    expect(faces(styleOf(third.text)).filter((f) => f.family === 'Source Sans Pro').map((f) => f.url)).toEqual([
      `${site_}/~fonts/source-sans-3-400.woff2`,
      `${site_}/~fonts/source-sans-3-600.woff2`,
      `${site_}/~fonts/source-sans-3-700.woff2`,
    ]);
  });

  it('give the fonts of the set without OFL files (Ubuntu, ABC Favorit, Roboto Slab) their stack only', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await siteWithCode(admin);
    for (const [font, stack] of [
      ['Ubuntu', '--font:"Ubuntu","Segoe UI",'],
      ['ABCFavorit', '--font:"ABC Favorit","Century Gothic",'],
      ['RobotoSlab', '--font:"Roboto Slab","Rockwell",'],
    ] as const) {
      const custom = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { font, monospaceFont: 'DMMono' } });
      expect(custom.status).toBe(200);
      const page = await open(h.current, `${url}/guides/start`);
      expect(page.status).toBe(200);
      const css = styleOf(page.text);
      expect(css).toContain(stack);
      expect(faces(css).map((f) => `${f.family} ${f.weight}`)).toEqual(['DM Mono 400']); // DM Mono has no 700
    }
    const file = await open(h.current, `${url}/~fonts/ubuntu-400.woff2`);
    expect(file.status).toBe(404);
  });

  it('keep a name outside the set to letters, digits, spaces and hyphens, so it cannot escape the style sheet', async () => {
    const admin = await h.current.newAdmin();
    const { site, url } = await siteWithCode(admin);
    const custom = await admin.api.put(`${sitePath(admin, site.id)}/customization`, {
      styling: { font: 'Comic Neue"}body{background:url(https://evil.example/x)}', monospaceFont: '</style><script>alert(1)</script>' },
    });
    expect(custom.status).toBe(200);
    const page = await open(h.current, `${url}/guides/start`);
    expect(page.status).toBe(200);
    const css = styleOf(page.text);
    expect(css).toContain('--font:"Comic Neuebodybackgroundurlhttpsevilexamplex",system-ui,');
    expect(css).toContain('--mono:"stylescriptalert1script",ui-monospace,');
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(css).not.toContain('evil.example');
    expect(faces(css)).toEqual([]); // no file for a name outside the set
    loadsOwnFontsOnly(page, url);
  });

  it('answer 404 for a font path that is not a served file, and on a site that is not there', async () => {
    const admin = await h.current.newAdmin();
    const { url } = await siteWithCode(admin);
    for (const name of ['inter-500.woff2', 'inter-400.woff', 'nope-400.woff2', 'inter.woff2', '..%2Fpackage.json', 'constructor', '__proto__']) {
      const missing = await open(h.current, `${url}/~fonts/${name}`);
      expect(missing.status, name).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^text\/html/);
    }
    const deeper = await open(h.current, `${url}/~fonts/inter-400.woff2/more`);
    expect(deeper.status).toBe(404);
    const served = await open(h.current, `${url}/~fonts/inter-400.woff2`);
    expect(served.status).toBe(200);
    const noSite = await open(h.current, `${new URL(url).origin}${new URL(url).pathname}-gone/~fonts/inter-400.woff2`);
    expect(noSite.status).toBe(404);
  });
});
