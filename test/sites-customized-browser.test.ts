// A customized site in a real headless Chromium, in light and in dark mode: the announcement and the header
// links show, the colours follow the reader's preference, the site's fonts (Merriweather, JetBrains Mono)
// are loaded from the site's own font files under its Content-Security-Policy, and screenshots go to
// test-results/customized-site-light.png and test-results/customized-site-dark.png. Skipped, saying why,
// where /usr/bin/chromium is absent.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium, useBrowser } from './support/browser.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { resultsDir } from './support/paths.js';
import { publish, spaceWithPages } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();
const chrome = useBrowser(h, 'customized site');

describe.skipIf(!hasChromium)('customized site in Chromium', () => {
  it('shows the announcement, the header links and its fonts, in light and dark mode', { timeout: 120_000 }, async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [
      { title: 'Welcome', description: 'Everything about Acme robots', markdown: '# Welcome\n\nAcme builds robots for warehouses: start with `acme install`.' },
      { title: 'Install', markdown: 'Run `acme install`.' },
    ]);
    const site = await newSite(admin, { title: 'Acme Robotics Docs', spaces: [space] });
    const custom = await admin.api.put(`${sitePath(admin, site.id)}/customization`, {
      styling: { primaryColor: { light: '#C2410C', dark: '#FB923C' }, font: 'Merriweather', monospaceFont: 'JetBrainsMono' },
      announcement: { enabled: true, message: 'Acme 3.0 is out.', link: { title: 'What is new', to: { kind: 'url', url: 'https://acme.example.com/3' } } },
      header: { links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.acme.example.com' } }, { title: 'Support', to: { kind: 'url', url: 'https://acme.example.com/support' }, style: 'button-primary' }] },
      themes: { default: 'light', toggeable: true },
    });
    expect(custom.status).toBe(200);
    const url = (await publish(admin, site.id)).urls.published.replace(PUBLIC_URL, chrome.publicUrl);

    for (const scheme of ['light', 'dark'] as const) {
      const page = await chrome.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
      // What the browser refused (the page's policy) or could not use (a font file it could not decode).
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|downloadable font|OTS parsing/i.test(message.text())) refused.push(message.text());
      });
      const fontResponses: { url: string; status: number; type: string | undefined }[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/~fonts/')) fontResponses.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] });
      });
      page.on('requestfailed', (r) => refused.push(`${r.url()}: ${r.failure()?.errorText}`));
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('note').textContent()).resolves.toContain('Acme 3.0 is out.');
      await expect(page.getByRole('note').getByRole('link', { name: 'What is new' }).getAttribute('href')).resolves.toBe('https://acme.example.com/3');
      const links = page.getByRole('navigation', { name: 'Links' });
      await expect(links.getByRole('link', { name: 'Status' }).isVisible()).resolves.toBe(true);
      await expect(links.getByRole('link', { name: 'Support' }).getAttribute('href')).resolves.toBe('https://acme.example.com/support');
      // One heading "Welcome": the page's title (the Markdown's leading `# Welcome` is the title, not a block).
      await expect(page.getByRole('heading', { name: 'Welcome', level: 1 }).count()).resolves.toBe(1);
      const colours = await page.evaluate(() => {
        const style = getComputedStyle(document.documentElement);
        return { primary: style.getPropertyValue('--primary').trim(), background: getComputedStyle(document.body).backgroundColor };
      });
      expect(colours.primary.toLowerCase()).toBe(scheme === 'light' ? '#c2410c' : '#fb923c');
      expect(colours.background).toBe(scheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(22, 23, 26)');
      // The fonts: the faces the page declares for the text and the code are loaded, from the site itself.
      const fonts = await page.evaluate(async () => {
        // Both are used on the page (its text, and its inline code), so the browser loads them itself.
        await document.fonts.ready;
        return {
          faces: [...document.fonts].map((f) => ({ family: f.family.replace(/"/g, ''), weight: f.weight, status: f.status })),
          text: document.fonts.check('400 16px "Merriweather"'),
          code: document.fonts.check('400 16px "JetBrains Mono"'),
          body: getComputedStyle(document.body).fontFamily,
        };
      });
      expect(fonts.body.startsWith('Merriweather,') || fonts.body.startsWith('"Merriweather",')).toBe(true);
      expect(fonts.faces).toContainEqual({ family: 'Merriweather', weight: '400', status: 'loaded' });
      expect(fonts.faces).toContainEqual({ family: 'JetBrains Mono', weight: '400', status: 'loaded' });
      expect(fonts.text && fonts.code).toBe(true);
      expect(fontResponses.length).toBeGreaterThan(0);
      for (const f of fontResponses) {
        expect(f.url.startsWith(chrome.publicUrl), f.url).toBe(true);
        expect(f).toMatchObject({ status: 200, type: 'font/woff2' });
      }
      expect(refused).toEqual([]);
      await page.screenshot({ path: path.join(resultsDir, `customized-site-${scheme}.png`), fullPage: true });
      await page.close();
    }
  });
});
