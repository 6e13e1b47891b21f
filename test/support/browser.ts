// A real headless Chromium (Debian's `chromium`, driven by playwright-core) and the test file's app on a
// real port for it to open, for the browser tests (test/*-browser.test.ts). Where /usr/bin/chromium is
// absent (`apt-get install -y chromium`; CI installs it) the tests skip, and say why once.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../server/app.js';
import type { Harness } from './harness.js';

const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Registers the hooks that start the app on a port and Chromium; both are read inside tests. */
export function useBrowser(h: { readonly current: Harness }, what: string): { readonly publicUrl: string; readonly browser: Browser } {
  if (!hasChromium) console.warn(`${what} browser test skipped: ${CHROMIUM} is missing (install it with \`apt-get install -y chromium\`).`);
  const holder = { publicUrl: '', browser: undefined as unknown as Browser };
  let server: http.Server | undefined;
  beforeAll(async () => {
    if (!hasChromium) return;
    server = http.createServer();
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    holder.publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on('request', createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: holder.publicUrl }));
    holder.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await holder.browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
  return holder;
}
