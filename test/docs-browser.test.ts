// The interactive reference at /docs in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core): it loads from this server alone (no CDN), finds an operation by search and shows
// its parameters; its "try it" targets this server. A screenshot goes to test-results/docs-reference.png.
// Skipped, saying why, where /usr/bin/chromium is absent (`apt-get install -y chromium`; CI installs it).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium, useBrowser } from './support/browser.js';
import { useHarness } from './support/harness.js';
import { resultsDir } from './support/paths.js';

const h = useHarness();
const chrome = useBrowser(h, 'docs');

describe.skipIf(!hasChromium)('reference docs in Chromium', () => {
  it('GET /docs finds an operation by search and shows its parameters, calling only this server', { timeout: 120_000 }, async () => {
    const page = await chrome.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(chrome.publicUrl) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    await page.goto(`${chrome.publicUrl}/docs`);
    await page.getByRole('heading', { name: 'Documentation Workspace Management API' }).waitFor({ timeout: 60_000 });
    // "Try it" sends requests to this server.
    await expect(page.getByText(`${chrome.publicUrl}/v1`).first().isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: /Open Search/ }).click();
    await page.keyboard.type('Create a space');
    await page.getByRole('option', { name: /Create a space/ }).first().click();
    const operation = page.locator('section', { has: page.getByRole('heading', { name: 'Create a space', exact: true }) }).last();
    await operation.getByText('organizationId', { exact: true }).first().waitFor({ timeout: 30_000 });
    await expect(operation.getByText('Path Parameters').first().isVisible()).resolves.toBe(true);
    await page.screenshot({ path: path.join(resultsDir, 'docs-reference.png') });
    expect(foreign).toEqual([]);
  });
});
