// The interactive reference at /docs in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core): it loads from this server alone (no CDN), finds an operation by search and shows
// its parameters; its "try it" targets this server. A screenshot goes to test-results/docs-reference.png.
// Skipped, saying why, where /usr/bin/chromium is absent (`apt-get install -y chromium`; CI installs it).
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { useHarness } from './support/harness.js';
import { resultsDir } from './support/paths.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`docs browser test skipped: ${CHROMIUM} is missing (install it with \`apt-get install -y chromium\`).`);

const h = useHarness();
let server: http.Server;
let publicUrl: string;
let browser: Browser;
beforeAll(async () => {
  if (!hasChromium) return;
  server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl }));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

describe.skipIf(!hasChromium)('reference docs in Chromium', () => {
  it('GET /docs finds an operation by search and shows its parameters, calling only this server', { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(publicUrl) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    await page.goto(`${publicUrl}/docs`);
    await page.getByRole('heading', { name: 'Documentation Workspace Management API' }).waitFor({ timeout: 60_000 });
    // "Try it" sends requests to this server.
    await expect(page.getByText(`${publicUrl}/v1`).first().isVisible()).resolves.toBe(true);

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
