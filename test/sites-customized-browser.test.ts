// A customized site in a real headless Chromium, in light and in dark mode: the announcement and the header
// links show, the colours follow the reader's preference, and screenshots go to
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
  it('shows the announcement and header links, in light and dark mode', { timeout: 120_000 }, async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [
      { title: 'Welcome', description: 'Everything about Acme robots', markdown: '# Welcome\n\nAcme builds robots for warehouses.' },
      { title: 'Install', markdown: 'Run `acme install`.' },
    ]);
    const site = await newSite(admin, { title: 'Acme Robotics Docs', spaces: [space] });
    const custom = await admin.api.put(`${sitePath(admin, site.id)}/customization`, {
      styling: { primaryColor: { light: '#C2410C', dark: '#FB923C' } },
      announcement: { enabled: true, message: 'Acme 3.0 is out.', link: { title: 'What is new', to: { kind: 'url', url: 'https://acme.example.com/3' } } },
      header: { links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.acme.example.com' } }, { title: 'Support', to: { kind: 'url', url: 'https://acme.example.com/support' }, style: 'button-primary' }] },
      themes: { default: 'light', toggeable: true },
    });
    expect(custom.status).toBe(200);
    const url = (await publish(admin, site.id)).urls.published.replace(PUBLIC_URL, chrome.publicUrl);

    for (const scheme of ['light', 'dark'] as const) {
      const page = await chrome.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('note').textContent()).resolves.toContain('Acme 3.0 is out.');
      await expect(page.getByRole('note').getByRole('link', { name: 'What is new' }).getAttribute('href')).resolves.toBe('https://acme.example.com/3');
      const links = page.getByRole('navigation', { name: 'Links' });
      await expect(links.getByRole('link', { name: 'Status' }).isVisible()).resolves.toBe(true);
      await expect(links.getByRole('link', { name: 'Support' }).getAttribute('href')).resolves.toBe('https://acme.example.com/support');
      // One heading "Welcome": the page's content opens with its title.
      await expect(page.getByRole('heading', { name: 'Welcome', level: 1 }).count()).resolves.toBe(1);
      const colours = await page.evaluate(() => {
        const style = getComputedStyle(document.documentElement);
        return { primary: style.getPropertyValue('--primary').trim(), background: getComputedStyle(document.body).backgroundColor };
      });
      expect(colours.primary.toLowerCase()).toBe(scheme === 'light' ? '#c2410c' : '#fb923c');
      expect(colours.background).toBe(scheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(22, 23, 26)');
      await page.screenshot({ path: path.join(resultsDir, `customized-site-${scheme}.png`), fullPage: true });
      await page.close();
    }
  });
});
