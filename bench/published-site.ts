// Published-site benchmark: a page of a published docs site (server/published/) served to readers, against
// the API's hot read `GET /v1/spaces/{id}`, by the same server process in the same run, on PGlite and on
// PostgreSQL. A served page is answered from the site the process holds (no query while the database's
// notices are heard: server/published/served-sites.ts) and the page cache (rendered once per revision, site
// state and visitor claims); the target is that a page costs no more than 1.5x the API read (req/s and CPU
// per request), a repeated view (304) gives 5x its throughput, and the first view after a merge takes no
// more than 1.5x its time (one request at a time: a merge, the page's first view, an API read). A page holding every block
// (test/support/every-block.ts: math, highlighted code, tabs, cards, …) is measured against the API read of
// that same page (`GET /v1/spaces/{id}/content/page/{pageId}`, its Document), with its HTML's weight (bytes,
// gzip) recorded; the client script of the pages (server/published/site-script.ts) must stay under 20 kB
// gzip, or the bench fails.
//
//   npx tsx bench/published-site.ts [--storage pglite|postgres|both] [--duration 10] [--connections 32]
//                                   [--warmup 5] [--rounds 1] [--pg-url postgres://postgres@127.0.0.1:5432/test]
//                                   [--out published-site.json] [--profile DIR]
//
// Six loads, at --connections each, one after the other on one server: the API read (with a token), a page of
// a public site (no token, no cookie), and a page of a visitor-auth site with adaptive content (the visitor's
// JWT in its cookie, verified on every request, with a claim a page condition reads), then the API read of
// the page of every block and that page on the public site; then the public page again as a reader's browser
// or a CDN revalidates it (`If-None-Match` with its ETag: 304, no body). Each round starts a
// fresh server (so the page cache starts cold and is warmed by the warm-up), and rounds rotate the order of
// the loads, so a burst of other work on the machine does not always hit the same one. Medians of the rounds
// go to bench/results/<out>, with the load average before and after; one SUMMARY line per storage and page.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { SignJWT } from 'jose';
import { gzipSync } from 'node:zlib';
import { createScratchDatabase } from '../server/db/scratch-database.js';
import { scriptGzipBytes } from '../server/published/site-assets.js';
import { EVERY_BLOCK_MARKDOWN } from '../test/support/every-block.js';
import { benchRun, type Server } from './support/bench-run.js';
import { cpuTimeMs, databaseCpuMs, databaseCpuUsed, medianOf, round2 } from './support/measures.js';
import { pageMarkdown } from './support/page-markdown.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    // Longer than bench/http.ts's 2 s: a fresh server answered the first load of a round up to 1.5x slower
    // than the same load later in the round (JIT, caches), whichever load came first.
    warmup: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '1' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    out: { type: 'string', default: 'published-site.json' },
    // Runs the server under `node --cpu-prof` (profiles in DIR/project-<storage>-<round>/; the largest is the main
    // thread's, summarize with bench/profile-summary.ts) and records nothing: the profiler slows it down.
    profile: { type: 'string' },
  },
});
type Storage = 'pglite' | 'postgres';
type Load = 'api' | 'page' | 'visitorPage' | 'blocksApi' | 'blocksPage' | 'pageNotModified';
const loads: Load[] = ['api', 'page', 'visitorPage', 'blocksApi', 'blocksPage', 'pageNotModified'];
/** What each load's answer must show (a page, not a sign-in page or a 404 that would be cheaper). */
const expected: Record<Load, RegExp> = {
  api: /"object":"space"/,
  page: /<h1>Topic 12<\/h1>/,
  visitorPage: /<h1>Topic 13<\/h1>/,
  blocksApi: /"object":"document"/,
  blocksPage: /<h1>Every block<\/h1>[\s\S]*class="katex"[\s\S]*role="tablist"[\s\S]*class="shiki/,
  pageNotModified: /^$/,
};
/** The status each load's every answer must have. */
const expectedStatus = (load: Load) => (load === 'pageNotModified' ? 304 : 200);
const MAX_SCRIPT_GZIP = 20_000;
const storages: Storage[] = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage as Storage];
if (!storages.every((s) => s === 'pglite' || s === 'postgres')) throw new Error(`--storage: pglite, postgres or both, not ${opts.storage}`);
const duration = Number(opts.duration);
const warmup = Number(opts.warmup);
const connections = Number(opts.connections);
const rounds = Number(opts.rounds);
if (!(duration > 0 && warmup >= 0 && connections > 0 && rounds > 0)) throw new Error('--duration, --connections and --rounds must be positive');

const root = path.resolve(import.meta.dirname, '..');
const token = 'bench-token-0123456789abcdef';
const auth = { authorization: `Bearer ${token}` };

const limitMs = storages.length * rounds * (loads.length * (warmup + duration) * 1000 + 90_000) + 60_000;
const { tmp, cleanups, cleanUp, abort, startServer: startScript, call } = benchRun('published-site', limitMs, auth);

/** The project's server in its own Node process (bench/support/bench-run.ts), with the bench's token as its admin's. */
function startServer(name: string, env: Record<string, string>): Promise<Server> {
  const profileArgs = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile, name)}`] : [];
  // The loads send one token and no token at all: rate limiting stays on (the default) far above them.
  // The yardstick is the API read made anew (READ_CACHE=off), as the targets were set: a held answer
  // (server/http/read-cache.ts) sends no statement at all, and is bench/http.ts's to measure.
  return startScript(name, 'server/main.ts', { ...env, LOG_LEVEL: 'info', BOOTSTRAP_TOKEN: token, RATE_LIMIT_PER_MINUTE: '1000000000', READ_CACHE: 'off' }, profileArgs);
}

interface Fixture {
  spacePath: string;
  pagePath: string;
  visitorPagePath: string;
  visitorCookie: string;
  blocksApiPath: string;
  blocksPagePath: string;
  /** The space of the public site and its page at pagePath, which firstViews changes by merges. */
  spaceId: string;
  pageId: string;
}

/** Through the API: a space of 24 pages (merged from a change request), a public site and a visitor-auth adaptive site over it. */
async function makeFixture(api: string): Promise<Fixture> {
  const orgs = await call('GET', `${api}/v1/orgs`);
  const org = orgs.items[0].id as string;
  // The API read is the hot path bench/http.ts measures: a space of its own, on no site (reading a space
  // published on a site also builds its published URL, which costs more).
  const read = await call('POST', `${api}/v1/orgs/${org}/spaces`, { title: 'Bench' });
  const space = await call('POST', `${api}/v1/orgs/${org}/spaces`, { title: 'Guides' });
  const cr = await call('POST', `${api}/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  const changes = Array.from({ length: 24 }, (_, i) => ({
    operation: 'insert_page',
    title: `Topic ${i + 1}`,
    document: { markdown: pageMarkdown(i + 1) },
    ...(i === 12 && { condition: 'visitor.claims.isPartner' }),
  }));
  changes.push({ operation: 'insert_page', title: 'Every block', document: { markdown: EVERY_BLOCK_MARKDOWN } });
  await call('POST', `${api}/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  await call('POST', `${api}/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const content = await call('GET', `${api}/v1/spaces/${space.id}/content`);
  const blocks = (content.pages as { id: string; title: string }[]).find((p) => p.title === 'Every block')!;
  const topic12 = (content.pages as { id: string; title: string }[]).find((p) => p.title === 'Topic 12')!;

  const site = await call('POST', `${api}/v1/orgs/${org}/sites`, { title: 'Acme docs', spaces: [space.id] });
  const published = await call('POST', `${api}/v1/orgs/${org}/sites/${site.id}/publish`);

  const gated = await call('POST', `${api}/v1/orgs/${org}/sites`, { title: 'Acme partner docs', spaces: [space.id], visibility: 'visitor-auth' });
  const schema = { type: 'object', properties: { isPartner: { type: 'boolean' } }, additionalProperties: false };
  await call('PUT', `${api}/v1/orgs/${org}/sites/${gated.id}/adaptive-schema`, { jsonSchema: schema });
  await call('PATCH', `${api}/v1/orgs/${org}/sites/${gated.id}`, { adaptiveContent: { enabled: true } });
  const gatedPublished = await call('POST', `${api}/v1/orgs/${org}/sites/${gated.id}/publish`);
  const { privateKey } = await call('GET', `${api}/v1/orgs/${org}/sites/${gated.id}/publishing/auth`);
  const jwt = await new SignJWT({ isPartner: true })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(privateKey as string));

  const pathOf = (url: string) => new URL(url).pathname;
  return {
    spacePath: `/v1/spaces/${read.id}`,
    // Pages in the middle of 24: previous and next, a full sidebar. Page 13 has a condition on a claim, so
    // anonymous readers of the public site do not see it; its visitors with the claim do.
    pagePath: `${pathOf(published.urls.published)}/topic-12`,
    visitorPagePath: `${pathOf(gatedPublished.urls.published)}/topic-13`,
    visitorCookie: `dw_visitor_${gated.id}=${jwt}`,
    blocksApiPath: `/v1/spaces/${space.id}/content/page/${blocks.id}`,
    blocksPagePath: `${pathOf(published.urls.published)}/every-block`,
    spaceId: space.id,
    pageId: topic12.id,
  };
}

/** The ETag a reader of `resource` gets with the page (a 200 without one fails the bench). */
async function etagOf(server: Server, resource: string): Promise<string> {
  const res = await fetch(server.url + resource, { redirect: 'manual' });
  await res.text();
  const etag = res.headers.get('etag');
  if (res.status !== 200 || !etag) throw new Error(`${resource} answered ${res.status} without an ETag`);
  return etag;
}

interface Measure {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** CPU of the server process per request, ms (PGlite's included; PostgreSQL's backends are dbCpuMs) */
  cpuMs: number;
  dbCpuMs?: number;
  /** bytes of the answer's body */
  bytes: number;
  /** bytes of the body gzipped (as a reader's browser receives it through a compressing proxy) */
  gzipBytes: number;
}

/** Warm-up, then the measure; any answer but `status` (200, or 304 for a revalidation), or any error, fails the bench. */
async function measure(name: string, server: Server, resource: string, headers: Record<string, string>, shows: RegExp, database?: string, status = 200): Promise<Measure> {
  const probe = await fetch(server.url + resource, { headers, redirect: 'manual' });
  const body = await probe.text();
  if (probe.status !== status) throw new Error(`${name}: ${resource} answered ${probe.status}: ${body.slice(0, 300)}`);
  if (!shows.test(body)) throw new Error(`${name}: unexpected body ${body.slice(0, 300)}`);
  for (const [phase, seconds] of [['warm-up', warmup], ['measure', duration]] as const) {
    if (seconds <= 0) continue;
    const cpuBefore = cpuTimeMs(server.pid);
    const dbBefore = databaseCpuMs(database);
    const r = await autocannon({ url: server.url + resource, connections, duration: seconds, headers });
    const cpu = cpuTimeMs(server.pid) - cpuBefore;
    const dbCpu = databaseCpuUsed(dbBefore, databaseCpuMs(database));
    const others = status === 304 ? r.non2xx - r['3xx'] + r['2xx'] : r.non2xx;
    if (others > 0 || r.errors > 0 || r.timeouts > 0 || r.requests.total === 0) {
      throw new Error(`${name} ${phase}: ${others} answers other than ${status}, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}`);
    }
    if (phase === 'measure') {
      const perRequest = (ms: number) => Math.round((ms / r.requests.total) * 1000) / 1000;
      return {
        requests: r.requests.total,
        rps: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        cpuMs: perRequest(cpu),
        ...(database && { dbCpuMs: perRequest(dbCpu) }),
        bytes: Buffer.byteLength(body),
        gzipBytes: gzipSync(body).length,
      };
    }
  }
  throw new Error('--duration must be positive');
}

/** Milliseconds of one request, its body read; `shows` must match it. */
async function timed(url: string, headers: Record<string, string>, shows: RegExp): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers, redirect: 'manual' });
  const body = await res.text();
  const ms = performance.now() - start;
  if (res.status !== 200 || !shows.test(body)) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return ms;
}

const FIRST_VIEWS = 15;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface FirstViews {
  /** Median ms of the public page's first view after a merge changed it (site, page tree and page made anew). */
  firstViewMs: number;
  /** Median ms of `GET /v1/spaces/{id}` sent right after each first view. */
  apiMs: number;
  /** firstViewMs ÷ apiMs (issue 52: ≤ 1.5) */
  cost: number;
  /** Median ms of the merge itself (its answer waits for the pages built at the change: server/published/page-prebuild.ts). */
  mergeMs: number;
}

/** FIRST_VIEWS times, one request at a time: a merge changes the page, then its first view and an API read are timed. */
async function firstViews(server: Server, f: Fixture, round: number): Promise<FirstViews> {
  const views: number[] = [];
  const reads: number[] = [];
  const merges: number[] = [];
  for (let i = 0; i < FIRST_VIEWS; i++) {
    const text = `Revised in round ${round}, merge ${i}.`;
    const cr = await call('POST', `${server.url}/v1/spaces/${f.spaceId}/change-requests`, { subject: text });
    await call('POST', `${server.url}/v1/spaces/${f.spaceId}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: f.pageId, document: { markdown: `${text}\n\n${pageMarkdown(12)}` } }],
    });
    const mergeStart = performance.now();
    await call('POST', `${server.url}/v1/spaces/${f.spaceId}/change-requests/${cr.id}/merge`);
    merges.push(performance.now() - mergeStart);
    views.push(await timed(server.url + f.pagePath, {}, new RegExp(text.replaceAll('.', '\\.'))));
    reads.push(await timed(server.url + f.spacePath, auth, expected.api));
  }
  const firstViewMs = round2(median(views));
  const apiMs = round2(median(reads));
  return { firstViewMs, apiMs, cost: round2(firstViewMs / apiMs), mergeMs: round2(median(merges)) };
}

interface Cost {
  /** API req/s ÷ page req/s: how many API reads one page costs in throughput (target ≤ 1.5) */
  rpsCost: number;
  /** page CPU per request ÷ API's (server, plus the database's on PostgreSQL) */
  cpuCost: number;
}

function costOf(page: Measure, api: Measure): Cost {
  const cpu = (m: Measure) => m.cpuMs + (m.dbCpuMs ?? 0);
  return { rpsCost: round2(api.rps / page.rps), cpuCost: round2(cpu(page) / cpu(api)) };
}

interface StorageResult {
  api: Measure;
  page: Measure & Cost;
  visitorPage: Measure & Cost;
  blocksApi: Measure;
  /** the page of every block against the API read of the same page */
  blocksPage: Measure & Cost;
  /** the public page revalidated with its ETag (304), against the API read */
  pageNotModified: Measure & Cost;
  /** The first view of the page after a merge against an API read, one request at a time (medians of the rounds). */
  firstView: FirstViews;
  rounds?: Record<Load, Measure>[];
}

async function benchStorage(storage: Storage): Promise<StorageResult> {
  let env: Record<string, string>;
  if (storage === 'pglite') env = { DATA_DIR: path.join(tmp, 'pglite') };
  else {
    const scratch = await createScratchDatabase(opts['pg-url']!, { prefix: 'bench_published' });
    cleanups.push(() => scratch.dispose());
    env = { DATABASE_URL: scratch.url };
  }
  const database = env.DATABASE_URL && new URL(env.DATABASE_URL).pathname.slice(1);
  let fixture: Fixture | undefined;
  const results: Record<Load, Measure>[] = [];
  const firsts: FirstViews[] = [];
  for (let round = 0; round < rounds; round++) {
    const server = await startServer(`project-${storage}-${round}`, env);
    try {
      fixture ??= await makeFixture(server.url);
      const f = fixture;
      const targets: Record<Load, [string, Record<string, string>]> = {
        api: [f.spacePath, auth],
        page: [f.pagePath, {}],
        visitorPage: [f.visitorPagePath, { cookie: f.visitorCookie }],
        blocksApi: [f.blocksApiPath, auth],
        blocksPage: [f.blocksPagePath, {}],
        pageNotModified: [f.pagePath, { 'if-none-match': await etagOf(server, f.pagePath) }],
      };
      // Round r starts with load r (mod 6): each load is measured at each place in turn.
      const order = loads.map((_, i) => loads[(i + round) % loads.length]);
      const measured = {} as Record<Load, Measure>;
      for (const load of order) measured[load] = await measure(`${storage} ${load}`, server, targets[load][0], targets[load][1], expected[load], database, expectedStatus(load));
      results.push(measured);
      firsts.push(await firstViews(server, f, round));
      console.log(`  round ${round + 1}: ${loads.map((l) => `${l} ${measured[l].rps} req/s`).join(', ')}`);
    } finally {
      await server.stop();
    }
  }
  const api = medianOf(results.map((r) => r.api));
  const page = medianOf(results.map((r) => r.page));
  const visitorPage = medianOf(results.map((r) => r.visitorPage));
  const blocksApi = medianOf(results.map((r) => r.blocksApi));
  const blocksPage = medianOf(results.map((r) => r.blocksPage));
  const pageNotModified = medianOf(results.map((r) => r.pageNotModified));
  return {
    api,
    page: { ...page, ...costOf(page, api) },
    visitorPage: { ...visitorPage, ...costOf(visitorPage, api) },
    blocksApi,
    blocksPage: { ...blocksPage, ...costOf(blocksPage, blocksApi) },
    pageNotModified: { ...pageNotModified, ...costOf(pageNotModified, api) },
    firstView: {
      firstViewMs: median(firsts.map((x) => x.firstViewMs)),
      apiMs: median(firsts.map((x) => x.apiMs)),
      cost: median(firsts.map((x) => x.cost)),
      mergeMs: median(firsts.map((x) => x.mergeMs)),
    },
    ...(rounds > 1 && { rounds: results }),
  };
}

const loadBefore = Math.round(os.loadavg()[0] * 100) / 100;
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const code = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'server', 'contract', 'generated') ? '+' : ''}`;
try {
  const scriptGzip = scriptGzipBytes();
  if (scriptGzip > MAX_SCRIPT_GZIP) throw new Error(`the pages' client script is ${scriptGzip} bytes gzip, above ${MAX_SCRIPT_GZIP}`);
  const results: Partial<Record<Storage, StorageResult>> = {};
  for (const storage of storages) {
    console.log(`${storage}: ${connections} connections, ${warmup} s warm-up, ${duration} s measure, ${rounds} round(s), load average ${os.loadavg()[0].toFixed(2)}…`);
    results[storage] = await benchStorage(storage);
  }
  const row = (cells: (string | number)[]) => console.log(cells.map((c, i) => String(c).padStart(i === 0 ? 22 : 11)).join(''));
  row(['', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'DB ms/req', 'bytes', 'gzip bytes', 'req/s cost', 'CPU cost']);
  for (const [storage, r] of Object.entries(results)) {
    for (const load of loads) {
      const m = r[load] as Measure & Partial<Cost>;
      row([`${storage} ${load}`, m.rps, m.p50, m.p99, m.cpuMs, m.dbCpuMs ?? '', m.bytes, m.gzipBytes, m.rpsCost ?? '', m.cpuCost ?? '']);
    }
  }
  for (const [storage, r] of Object.entries(results)) {
    for (const load of ['page', 'visitorPage'] as const) {
      const m = r[load];
      console.log(
        `SUMMARY published-site ${storage} ${load} (median of ${rounds}): ${m.rps} req/s vs GET /v1/spaces/{id} ${r.api.rps} req/s: a page costs ${m.rpsCost}x the API read (target <= 1.5); CPU per request ${m.cpuCost}x`,
      );
    }
    const n = r.pageNotModified;
    console.log(
      `SUMMARY published-site ${storage} pageNotModified (median of ${rounds}): ${n.rps} req/s vs GET /v1/spaces/{id} ${r.api.rps} req/s: a revalidated page (304) gives ${round2(n.rps / r.api.rps)}x the API read's throughput (issue 52 asks >= 5x for a repeated view); CPU per request ${n.cpuCost}x`,
    );
    const fv = r.firstView;
    console.log(
      `SUMMARY published-site ${storage} firstViewAfterMerge (median of ${FIRST_VIEWS} merges, ${rounds} round(s)): ${fv.firstViewMs} ms vs GET /v1/spaces/{id} ${fv.apiMs} ms, one request at a time: ${fv.cost}x (issue 52 asks <= 1.5x); the merges took ${fv.mergeMs} ms`,
    );
    const b = r.blocksPage;
    console.log(
      `SUMMARY published-site ${storage} blocksPage (median of ${rounds}): ${b.rps} req/s vs the API read of the same page ${r.blocksApi.rps} req/s: ${b.rpsCost}x (target <= 1.5); CPU per request ${b.cpuCost}x; HTML ${b.bytes} bytes, ${b.gzipBytes} gzip`,
    );
  }
  console.log(`SUMMARY published-site client script: ${scriptGzip} bytes gzip (limit ${MAX_SCRIPT_GZIP})`);
  if (opts.profile) {
    console.log(`profiles in ${path.resolve(opts.profile)} (results not recorded: the profiler slows the server)`);
    await cleanUp();
    process.exit(0);
  }
  const file = path.resolve(import.meta.dirname, 'results', opts.out!);
  mkdirSync(path.dirname(file), { recursive: true });
  const record = {
    date: new Date().toISOString(),
    code,
    node: process.version,
    cpus: os.cpus().length,
    // The 1-minute load average: other work on the machine skews the numbers (the bench itself adds about 2).
    loadAverage: { before: loadBefore, after: Math.round(os.loadavg()[0] * 100) / 100 },
    requests: {
      api: 'GET /v1/spaces/{id} (token; a space on no site, as bench/http.ts reads)',
      page: 'GET <published URL>/topic-12 of a public site (24 pages)',
      visitorPage: 'GET <published URL>/topic-13 of a visitor-auth site with adaptive content over the same space (JWT cookie; the page has a condition on its claim)',
      blocksApi: 'GET /v1/spaces/{id}/content/page/{pageId} of the page of every block (test/support/every-block.ts; token)',
      blocksPage: 'GET <published URL>/every-block of the public site',
      pageNotModified: "GET <published URL>/topic-12 of the public site with If-None-Match: the page's ETag (304, no body)",
      firstView: 'a merge changes topic-12 (timed), then its first GET and one GET /v1/spaces/{id} are timed, one request at a time (15 merges a round)',
    },
    scriptGzipBytes: scriptGzip,
    connections,
    warmupSeconds: warmup,
    durationSeconds: duration,
    rounds,
    results,
  };
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  console.log(`written to ${path.relative(root, file)}`);
  await cleanUp();
} catch (err) {
  await abort(`bench/published-site.ts failed: ${err instanceof Error ? err.message : String(err)}`, 1);
}
