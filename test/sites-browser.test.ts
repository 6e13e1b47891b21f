// A published site in a real headless Chromium (Debian's `chromium`, driven by playwright-core): it opens
// the site's published URL, follows the sidebar to a second page and finds the rendered table, code block
// and link. A screenshot goes to test-results/published-site.png. Skipped, saying why, where
// /usr/bin/chromium is absent (`apt-get install -y chromium`; CI installs it).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium, useBrowser } from './support/browser.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { resultsDir } from './support/paths.js';
import { publish, spaceWithPages } from './published-support.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();
const chrome = useBrowser(h, 'published site');

describe.skipIf(!hasChromium)('published site in Chromium', () => {
  it('opens the site, follows the sidebar to a second page and shows its table, code block and link', { timeout: 120_000 }, async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Guides', [
      { title: 'Introduction', description: 'Acme robots, from unboxing to production', markdown: '# Welcome\n\nAcme builds robots for warehouses.\n\n## What you need\n\nA robot and a network.' },
      {
        title: 'Install',
        markdown:
          'Install the command-line tool, then check its version.\n\n| OS | Command |\n|---|---|\n| Debian | `apt install acme` |\n| macOS | `brew install acme` |\n\n```sh\nacme --version\n```\n\nRead the [release notes](https://example.com/acme/releases).',
      },
    ]);
    const site = await newSite(admin, { title: 'Acme Robotics Docs', spaces: [space] });
    const custom = await admin.api.put(`${sitePath(admin, site.id)}/customization`, { styling: { primaryColor: { light: '#C2410C', dark: '#FB923C' } } });
    expect(custom.status).toBe(200);
    const url = (await publish(admin, site.id)).urls.published.replace(PUBLIC_URL, chrome.publicUrl);

    const page = await chrome.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Introduction | Acme Robotics Docs');
    await expect(page.getByRole('heading', { name: 'Welcome' }).isVisible()).resolves.toBe(true);

    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Install' }).click();
    await page.waitForURL(/\/guides\/install$/);
    await expect(page.title()).resolves.toBe('Install | Acme Robotics Docs');
    const table = page.locator('article table');
    await expect(table.locator('td').first().textContent()).resolves.toBe('Debian');
    await expect(table.locator('tbody tr').count()).resolves.toBe(2);
    await expect(page.locator('article pre code').textContent()).resolves.toContain('acme --version');
    const link = page.getByRole('link', { name: 'release notes' });
    await expect(link.getAttribute('href')).resolves.toBe('https://example.com/acme/releases');
    await expect(page.getByRole('link', { name: /Introduction/ }).last().getAttribute('rel')).resolves.toBe('prev');
    const primary = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim());
    expect(primary.toLowerCase()).toBe('#c2410c');
    await page.screenshot({ path: path.join(resultsDir, 'published-site.png'), fullPage: true });
  });
});
