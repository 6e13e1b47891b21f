// GitBook's own docs renderer (github GitbookIO/gitbook, packages/gitbook: a Next.js app that reads a site
// entirely through the public API) run against this server: the check that "clients written for GitBook's API
// work here" holds for its most demanding client (issue 48; how to set the renderer up: docs/headless.md).
//
//   npx tsx bench/gitbook-renderer.ts --renderer <gitbook checkout>/packages/gitbook [--bun <bun binary>]
//                                     [--renderer-node <node 22 binary>] [--renderer-node-options='--import …']
//                                     [--renderer-url http://localhost:3000] [--out test-results/gitbook-renderer]
//
// It starts this server (PGlite, in a scratch folder) behind a logging proxy, publishes two sites of pages of
// many block types (a public adaptive one on a custom hostname, and a visitor-auth one), starts the renderer
// (`next dev --webpack` on port 3000, the only port its development mode routes `/url/<host>/<path>` on) unless
// --renderer-url names one already running with GITBOOK_API_URL=http://127.0.0.1:<--proxy-port> and
// GITBOOK_API_TOKEN=<--token>, then drives it with Chromium (playwright-core) through every page, its search and
// its 404 page (after a warm-up of a page and a 404 that does not count: the development build compiles then). It writes a screenshot and the HTML of each to --out, `api-calls.log` (every API call the renderer
// made, with its status) and `summary.json`, and exits non-zero when a page failed. No code of GitBook's is part
// of this repository: the renderer is a checkout of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, copyFileSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { chromium, type Page } from 'playwright-core';
import { EVERY_BLOCK_FILE, EVERY_BLOCK_MARKDOWN } from '../test/support/every-block.js';
import { benchRun } from './support/bench-run.js';

const { values: opts } = parseArgs({
  options: {
    renderer: { type: 'string' },
    bun: { type: 'string', default: 'bun' },
    // The renderer's own Node (its engines ask for 22; `bun run next` runs Next.js with the first `node` on PATH)
    // and NODE_OPTIONS (the offline stubs of docs/headless.md), for the renderer's process only.
    'renderer-node': { type: 'string' },
    'renderer-node-options': { type: 'string' },
    'renderer-url': { type: 'string' },
    'proxy-port': { type: 'string', default: '4411' },
    token: { type: 'string', default: 'renderer-check-token-0123456789' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    out: { type: 'string', default: 'test-results/gitbook-renderer' },
    // The first page compiles for minutes on two cores.
    'first-timeout': { type: 'string', default: '1200' },
  },
});
if (!opts.renderer && !opts['renderer-url']) throw new Error('--renderer <checkout>/packages/gitbook, or --renderer-url of one running');

const out = path.resolve(opts.out!);
mkdirSync(out, { recursive: true });
const callLog = path.join(out, 'api-calls.log');
writeFileSync(callLog, '');
const auth = { authorization: `Bearer ${opts.token}` };
const { tmp, cleanups, cleanUp, startServer, call } = benchRun('gitbook-renderer', 3 * 3600_000, auth);

// 1×1 PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The pages of the check, each with a sentence the rendered page must show. */
const PAGES: { title: string; markdown: string; text: string; condition?: string }[] = [
  { title: 'Welcome', text: 'Welcome to the renderer check', markdown: '# Welcome\n\nWelcome to the renderer check. Read [the setup](setup.md) next.\n\n## What is here\n\nParagraphs with **bold**, *italic*, `code` and [a link](https://example.com).' },
  { title: 'Setup', text: 'Oil the gearbox', markdown: 'Oil the gearbox before the first run.\n\n1. Unpack\n2. Oil\n3. Run\n\n- one\n- two\n  - nested' },
  { title: 'Code', text: 'The install command', markdown: 'The install command:\n\n```bash\nnpm install acme --save\n```\n\n```js\nconsole.log("gearbox");\n```' },
  { title: 'Hints', text: 'Hints and quotes', markdown: 'Hints and quotes.\n\n{% hint style="info" %}\nThe gearbox needs oil.\n{% endhint %}\n\n{% hint style="warning" %}\nDo not run it dry.\n{% endhint %}\n\n> A quote about gears.\n\n---\n\nAfter the divider.' },
  { title: 'Tabs', text: 'Tabs and expandables', markdown: 'Tabs and expandables.\n\n{% tabs %}\n{% tab title="Linux" %}\nRun it on Linux.\n{% endtab %}\n{% tab title="macOS" %}\nRun it on macOS.\n{% endtab %}\n{% endtabs %}\n\n<details>\n\n<summary>More about gears</summary>\n\nGears turn.\n\n</details>' },
  { title: 'Images', text: 'A diagram of the gearbox', markdown: 'A diagram of the gearbox:\n\n![The diagram](.gitbook/assets/diagram.png)' },
  { title: 'Table', text: 'Sizes of gears', markdown: 'Sizes of gears:\n\n| Gear | Teeth |\n| --- | --- |\n| Small | 12 |\n| Large | 48 |' },
  // Every block a page can hold (the page our own published site's browser test reads): its user mention
  // names the bench's admin (the placeholder id replaced), its page mention the Readers page (inserted before
  // it: a relative link is read against the pages there are when its change applies), its file block the
  // space's EVERY_BLOCK_FILE.
  { title: 'Readers', text: 'Hello readers', markdown: 'Hello readers: the page the page of every block mentions.' },
  { title: 'Every block', text: 'That is every block', markdown: EVERY_BLOCK_MARKDOWN },
  { title: 'Beta', text: 'The beta gearbox', markdown: 'The beta gearbox is faster.', condition: 'visitor.claims.isBetaUser' },
];

const HOST = 'docs.renderer-check.example';
const PRIVATE_HOST = 'private.renderer-check.example';

/** A logging proxy in front of the API: every call with its status, kind of token and time. */
async function startProxy(target: string, port: number) {
  const server = http.createServer((req, res) => {
    const started = Date.now();
    const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const kind = !token ? 'none' : token === opts.token ? 'renderer' : token.startsWith('eyJ') ? 'site-token' : 'other';
    const upstream = http.request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
      answer.on('end', () => appendFileSync(callLog, `${answer.statusCode} ${req.method} ${req.url} [${kind}] ${Date.now() - started}ms\n`));
    });
    upstream.on('error', (err) => {
      appendFileSync(callLog, `ERR ${req.method} ${req.url} ${err.message}\n`);
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  // The renderer (undici) keeps connections open across a page's minutes of compiling: a server closing an idle
  // one as the renderer reuses it fails that call ("other side closed"), so idle connections are kept long.
  server.keepAliveTimeout = 15 * 60_000;
  server.headersTimeout = 15 * 60_000 + 1000;
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

async function makeSites(api: string) {
  const org = (await call('GET', `${api}/v1/orgs`)).items[0].id;
  const userId = (await call('GET', `${api}/v1/user`)).id as string;
  const space = await call('POST', `${api}/v1/orgs/${org}/spaces`, { title: 'Gearbox guide' });
  const cr = await call('POST', `${api}/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  const changes = [
    {
      operation: 'insert_files',
      files: [
        { ref: 'diagram', name: 'diagram.png', contentType: 'image/png', base64: png },
        { name: EVERY_BLOCK_FILE.name, contentType: EVERY_BLOCK_FILE.contentType, base64: Buffer.from(EVERY_BLOCK_FILE.text).toString('base64') },
      ],
    },
    ...PAGES.map((p) => ({
      operation: 'insert_page',
      title: p.title,
      document: { markdown: p.markdown.replaceAll('usr_01ABCDEFGHJK', userId) },
      ...(p.condition && { condition: p.condition }),
    })),
  ];
  await call('POST', `${api}/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  await call('POST', `${api}/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const pages = (await call('GET', `${api}/v1/spaces/${space.id}/content/pages`)).pages as { id: string; title: string; path: string }[];

  const site = await call('POST', `${api}/v1/orgs/${org}/sites`, { title: 'Gearbox docs', spaces: [space.id] });
  await call('PATCH', `${api}/v1/orgs/${org}/sites/${site.id}`, { hostname: HOST });
  await call('PUT', `${api}/v1/orgs/${org}/sites/${site.id}/adaptive-schema`, { jsonSchema: { type: 'object', properties: { isBetaUser: { type: 'boolean' } }, additionalProperties: false } });
  await call('PATCH', `${api}/v1/orgs/${org}/sites/${site.id}`, { adaptiveContent: { enabled: true } });
  await call('POST', `${api}/v1/orgs/${org}/sites/${site.id}/publish`);
  const key = (await call('GET', `${api}/v1/orgs/${org}/sites/${site.id}/publishing/auth`)).privateKey as string;

  const privateSite = await call('POST', `${api}/v1/orgs/${org}/sites`, { title: 'Private gearbox docs', spaces: [space.id], visibility: 'visitor-auth' });
  await call('PATCH', `${api}/v1/orgs/${org}/sites/${privateSite.id}`, { hostname: PRIVATE_HOST });
  await call('POST', `${api}/v1/orgs/${org}/sites/${privateSite.id}/publish`);
  const privateKey = (await call('GET', `${api}/v1/orgs/${org}/sites/${privateSite.id}/publishing/auth`)).privateKey as string;
  const sign = (claims: Record<string, unknown>, secret: string) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('2h').sign(new TextEncoder().encode(secret));
  return { pages, betaToken: await sign({ isBetaUser: true }, key), readerToken: await sign({ sub: 'reader' }, privateKey) };
}

/** `next dev --webpack` on port 3000, with the API behind the proxy; resolves once it listens. */
async function startRenderer(proxyPort: number): Promise<string> {
  const log = path.join(out, 'renderer.log');
  const fd = openSync(log, 'w');
  const env: NodeJS.ProcessEnv = { ...process.env, GITBOOK_API_URL: `http://127.0.0.1:${proxyPort}`, GITBOOK_API_TOKEN: opts.token, NEXT_TELEMETRY_DISABLED: '1' };
  if (opts['renderer-node']) env.PATH = `${path.dirname(path.resolve(opts['renderer-node']))}${path.delimiter}${env.PATH}`;
  if (opts['renderer-node-options']) env.NODE_OPTIONS = opts['renderer-node-options'];
  // Niced: its compile takes both cores for minutes on a machine others share.
  const child: ChildProcess = spawn('nice', ['-n', '15', opts.bun!, 'run', 'next', 'dev', '--webpack', '-p', '3000'], {
    cwd: path.resolve(opts.renderer!),
    env,
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  cleanups.push(() => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      await fetch('http://localhost:3000/', { signal: AbortSignal.timeout(2000) });
      return 'http://localhost:3000';
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  throw new Error(`the renderer did not start: see ${log}`);
}

interface Visit {
  name: string;
  url: string;
  status: number | null;
  expected: number;
  text?: string;
  shows?: boolean;
  error?: string;
  ms: number;
}

async function visit(page: Page, name: string, url: string, expected: number, text: string | undefined, timeoutMs: number): Promise<Visit> {
  const started = Date.now();
  appendFileSync(callLog, `# ${name}: ${url}\n`);
  try {
    const res = await page.goto(url, { timeout: timeoutMs, waitUntil: 'load' });
    // Client components settle; the search's results come from a server action after the page loaded (the
    // first one compiles for a while), so a page that should show a text gets up to a minute to show it.
    await page.waitForTimeout(1500);
    if (text) await page.waitForFunction((t) => document.body.innerText.includes(t), text, { timeout: 60_000 }).catch(() => undefined);
    const html = await page.content();
    writeFileSync(path.join(out, `${name}.html`), html);
    await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
    const body = await page.innerText('body').catch(() => '');
    return { name, url, status: res?.status() ?? null, expected, ...(text && { text, shows: body.includes(text) }), ms: Date.now() - started };
  } catch (error) {
    return { name, url, status: null, expected, error: (error as Error).message.split('\n')[0], ms: Date.now() - started };
  }
}

try {
  const server = await startServer('api', 'server/main.ts', { DATA_DIR: path.join(tmp, 'pglite'), BOOTSTRAP_TOKEN: opts.token!, RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn' });
  // Kept beside the call log: a 5xx's cause is in it, and the scratch folder goes when the run ends (the copy
  // runs after the server stopped, before the folder is removed).
  cleanups.splice(1, 0, () => copyFileSync(server.logFile, path.join(out, 'server.log')));
  const proxyPort = Number(opts['proxy-port']);
  await startProxy(server.url, proxyPort);
  const { pages, betaToken, readerToken } = await makeSites(server.url);
  console.log(`API on ${server.url}, proxied on :${proxyPort}; sites ${HOST} and ${PRIVATE_HOST}`);
  const renderer = opts['renderer-url'] ?? (await startRenderer(proxyPort));
  const browser = await chromium.launch({ executablePath: opts.chromium, args: ['--no-sandbox'] });
  cleanups.push(() => browser.close());
  const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const visits: Visit[] = [];
  let timeout = Number(opts['first-timeout']) * 1000;
  // Warm-up, not counted: the development build compiles the page route, its 404 and the icon route on the
  // first requests, and a request served while another route compiles fails now and then inside webpack
  // (`__webpack_modules__[moduleId] is not a function`, docs/headless.md). A failure the API causes shows
  // again in the visits that count.
  const first = pages.find((x) => x.title === PAGES[0]!.title)!;
  const warmUps = [
    await visit(tab, 'warm-up-page', `${renderer}/url/${HOST}/${first.path}`, 200, undefined, timeout),
    await visit(tab, 'warm-up-not-found', `${renderer}/url/${HOST}/warm-up-missing`, 404, undefined, timeout),
  ];
  for (const w of warmUps) console.log(JSON.stringify(w));
  timeout = 300_000;
  for (const p of PAGES.filter((p) => !p.condition)) {
    const page = pages.find((x) => x.title === p.title)!;
    visits.push(await visit(tab, `page-${page.path}`, `${renderer}/url/${HOST}/${page.path}`, 200, p.text, timeout));
    console.log(JSON.stringify(visits.at(-1)));
  }
  const beta = pages.find((x) => x.title === 'Beta')!;
  // Adaptive content: the Beta page for a visitor whose signed claims say so, and not for another.
  visits.push(await visit(tab, 'adaptive-beta', `${renderer}/url/${HOST}/${beta.path}?jwt_token=${betaToken}`, 200, 'The beta gearbox', timeout));
  const anonymous = await (await browser.newContext()).newPage();
  visits.push(await visit(anonymous, 'adaptive-anonymous-404', `${renderer}/url/${HOST}/${beta.path}`, 404, undefined, timeout));
  visits.push(await visit(tab, 'search', `${renderer}/url/${HOST}/?q=gearbox`, 200, 'Oil the gearbox', timeout));
  visits.push(await visit(tab, 'not-found', `${renderer}/url/${HOST}/no-such-page`, 404, undefined, timeout));
  // The visitor-auth site: with the reader's token, then without.
  visits.push(await visit(tab, 'visitor-auth', `${renderer}/url/${PRIVATE_HOST}/setup?jwt_token=${readerToken}`, 200, 'Oil the gearbox', timeout));
  const stranger = await (await browser.newContext()).newPage();
  visits.push(await visit(stranger, 'visitor-auth-refused', `${renderer}/url/${PRIVATE_HOST}/setup`, 404, undefined, timeout));
  for (const v of visits.slice(-6)) console.log(JSON.stringify(v));

  const calls = (await import('node:fs')).readFileSync(callLog, 'utf8').split('\n').filter((l) => /^\d|^ERR/.test(l));
  const failedCalls = calls.filter((l) => !/^(2\d\d|404) /.test(l));
  const failed = visits.filter((v) => v.status !== v.expected || v.shows === false);
  writeFileSync(path.join(out, 'summary.json'), JSON.stringify({ renderer, warmUps, visits, apiCalls: calls.length, failedCalls }, null, 2));
  console.log(`SUMMARY gitbook-renderer: ${visits.length - failed.length}/${visits.length} visits as expected; ${calls.length} API calls, ${failedCalls.length} not 2xx/404 (see ${callLog})`);
  await cleanUp();
  process.exit(failed.length > 0 ? 1 : 0);
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}
