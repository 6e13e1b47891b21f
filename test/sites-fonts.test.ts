// The site's fonts (customization `styling.font`, `styling.monospaceFont`) render on its pages as system font
// stacks led by the chosen family: nothing is loaded for them from anywhere (no @font-face, no @import, no
// font URL, no font-src in the page's policy), so no reader is sent to a font CDN (server/published/fonts.ts).
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();

/** The page's inline style sheet. */
const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';

async function siteWithCode(admin: Account) {
  const space = await spaceWithPages(admin, 'Guides', [{ title: 'Start', markdown: 'Run `npm start`.' }]);
  const site = await newSite(admin, { title: 'Typed docs', spaces: [space] });
  const url: string = (await publish(admin, site.id)).urls.published;
  return { site, url };
}

/** Nothing on the page makes the browser fetch a font. */
function loadsNoFont(page: { text: string; headers: Record<string, string> }) {
  const css = styleOf(page.text);
  expect(css).not.toMatch(/@font-face|@import|url\(/i);
  expect(page.text).not.toMatch(/<link[^>]+stylesheet/i);
  expect(page.text).not.toMatch(/fonts\.(googleapis|gstatic)|fontsource|typekit/i);
  expect(String(page.headers['content-security-policy'])).not.toContain('font-src');
}

describe('site fonts', () => {
  it('use the default stacks (Inter, IBM Plex Mono) and load nothing', async () => {
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
    loadsNoFont(page);
  });

  it("follow the customization's fonts from the next request, with a stack of the same kind", async () => {
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
    loadsNoFont(page);

    const geometric = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { font: 'Poppins' } });
    expect(geometric.status).toBe(200);
    const again = await open(h.current, `${url}/guides/start`);
    expect(styleOf(again.text)).toContain('--font:"Poppins","Century Gothic",');
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
    loadsNoFont(page);
  });
});
