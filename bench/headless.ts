// Headless benchmark (issue 41): what a docs front end of its own pays per page view, on PGlite and on
// PostgreSQL, against the API's hot read `GET /v1/spaces/{id}`, by the same server process in the same run.
// A page view is two requests: the resolution of the reader's URL (`GET /v1/urls/published`, with the
// renderer's own token) and the read of the page's document in the resolved revision with the site token the
// resolution handed out (`GET /v1/spaces/{id}/revisions/{rev}/page/{page}/document`). Each is loaded alone at
// --connections; a page view's cost is the sum of the two requests' times at those rates, and the target is
// that it costs no more than 2× one API read (`pageViewCost` = API req/s ÷ page views/s ≤ 2).
//
//   npx tsx bench/headless.ts [--storage pglite|postgres|both] [--duration 10] [--connections 32] [--warmup 3]
//                             [--pg-url postgres://postgres@127.0.0.1:5432/test] [--out headless.json] [--profile DIR]
// Besides req/s, each load's CPU per request is recorded: the server process's (`cpuMs`, PGlite included) and,
// on PostgreSQL, its database backends' (`dbCpuMs`); on a shared machine they vary less than req/s.
// `--profile DIR` runs the server under `node --cpu-prof` (profiles in DIR/project-<storage>/, the largest is
// the main thread's; summarize with bench/profile-summary.ts) and records nothing: the profiler slows it down.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createScratchDatabase } from '../server/db/scratch-database.js';
import { benchRun, type Server } from './support/bench-run.js';
import { cpuTimeMs, databaseCpuMs, databaseCpuUsed, round2 } from './support/measures.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '3' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    out: { type: 'string', default: 'headless.json' },
    profile: { type: 'string' },
  },
});
type Storage = 'pglite' | 'postgres';
type Load = 'api' | 'resolve' | 'document';
const storages: Storage[] = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage as Storage];
if (!storages.every((s) => s === 'pglite' || s === 'postgres')) throw new Error(`--storage: pglite, postgres or both, not ${opts.storage}`);
const duration = Number(opts.duration);
const warmup = Number(opts.warmup);
const connections = Number(opts.connections);
if (!(duration > 0 && warmup >= 0 && connections > 0)) throw new Error('--duration and --connections must be positive');

const root = path.resolve(import.meta.dirname, '..');
const token = 'bench-token-0123456789abcdef';
const auth = { authorization: `Bearer ${token}` };
const limitMs = storages.length * (3 * (warmup + duration) * 1000 + 120_000) + 60_000;
const { tmp, cleanups, cleanUp, abort, startServer, call } = benchRun('headless', limitMs, auth);

/** A space of 12 pages on a published public site, read once as a renderer would; the three loads' targets. */
async function makeFixture(api: string): Promise<Record<Load, [string, Record<string, string>]>> {
  const org = (await call('GET', `${api}/v1/orgs`)).items[0].id;
  const read = await call('POST', `${api}/v1/orgs/${org}/spaces`, { title: 'Bench' });
  const space = await call('POST', `${api}/v1/orgs/${org}/spaces`, { title: 'Guides' });
  const cr = await call('POST', `${api}/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
  const changes = Array.from({ length: 12 }, (_, i) => ({
    operation: 'insert_page',
    title: `Topic ${i + 1}`,
    document: { markdown: `Everything about topic ${i + 1}.\n\n## Setup\n\nRun \`acme setup --topic ${i + 1}\`, then read [the guide](https://example.com/guide).\n\n- one\n- two\n- three` },
  }));
  await call('POST', `${api}/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  await call('POST', `${api}/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const site = await call('POST', `${api}/v1/orgs/${org}/sites`, { title: 'Acme docs', spaces: [space.id] });
  const published = await call('POST', `${api}/v1/orgs/${org}/sites/${site.id}/publish`);
  const resolvePath = `/v1/urls/published?${new URLSearchParams({ url: `${published.urls.published}/topic-6` })}`;
  const resolved = await call('GET', `${api}${resolvePath}`);
  if (!resolved.page || !resolved.apiToken) throw new Error(`the resolution found no page: ${JSON.stringify(resolved).slice(0, 300)}`);
  return {
    api: [`/v1/spaces/${read.id}`, auth],
    resolve: [resolvePath, auth],
    document: [`/v1/spaces/${space.id}/revisions/${resolved.revision}/page/${resolved.page}/document`, { authorization: `Bearer ${resolved.apiToken}` }],
  };
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** CPU ms per request of the server process (with PGlite, the database's too). */
  cpuMs: number;
  /** PostgreSQL only: CPU ms per request of the database backends serving the server. */
  dbCpuMs?: number;
}

/** Warm-up, then the measure; any answer but 2xx, or any error, fails the bench. */
async function measure(name: string, server: Server, resource: string, headers: Record<string, string>, database?: string): Promise<Measure> {
  const probe = await fetch(server.url + resource, { headers });
  if (probe.status !== 200) throw new Error(`${name}: ${resource} answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
  for (const [phase, seconds] of [['warm-up', warmup], ['measure', duration]] as const) {
    if (seconds <= 0) continue;
    const cpuBefore = cpuTimeMs(server.pid);
    const dbBefore = databaseCpuMs(database);
    const r = await autocannon({ url: server.url + resource, connections, duration: seconds, headers });
    const cpu = cpuTimeMs(server.pid) - cpuBefore;
    const dbCpu = databaseCpuUsed(dbBefore, databaseCpuMs(database));
    if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.requests.total === 0) {
      throw new Error(`${name} ${phase}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}`);
    }
    const perRequest = (ms: number) => Math.round((ms / r.requests.total) * 1000) / 1000;
    if (phase === 'measure') {
      return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, cpuMs: perRequest(cpu), ...(database && { dbCpuMs: perRequest(dbCpu) }) };
    }
  }
  throw new Error('--duration must be positive');
}

async function benchStorage(storage: Storage) {
  let env: Record<string, string>;
  let database: string | undefined;
  if (storage === 'pglite') env = { DATA_DIR: path.join(tmp, 'pglite') };
  else {
    const scratch = await createScratchDatabase(opts['pg-url']!, { prefix: 'bench_headless' });
    cleanups.push(() => scratch.dispose());
    env = { DATABASE_URL: scratch.url };
    database = new URL(scratch.url).pathname.slice(1);
  }
  const profileArgs = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile, `project-${storage}`)}`] : [];
  // The yardstick is the API read made anew (READ_CACHE=off), as the targets were set: a held answer
  // (server/http/read-cache.ts) sends no statement at all, and is bench/http.ts's to measure.
  const server = await startServer(`project-${storage}`, 'server/main.ts', { ...env, LOG_LEVEL: 'info', BOOTSTRAP_TOKEN: token, RATE_LIMIT_PER_MINUTE: '1000000000', READ_CACHE: 'off' }, profileArgs);
  try {
    const targets = await makeFixture(server.url);
    const measured = {} as Record<Load, Measure>;
    for (const load of ['api', 'resolve', 'document'] as const) measured[load] = await measure(`${storage} ${load}`, server, ...targets[load], database);
    const pageViewsPerSecond = 1 / (1 / measured.resolve.rps + 1 / measured.document.rps);
    return { ...measured, pageViewsPerSecond: Math.round(pageViewsPerSecond), pageViewCost: round2(measured.api.rps / pageViewsPerSecond) };
  } finally {
    await server.stop();
  }
}

const loadBefore = Math.round(os.loadavg()[0] * 100) / 100;
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const code = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'server', 'contract', 'generated') ? '+' : ''}`;
try {
  const results: Partial<Record<Storage, Awaited<ReturnType<typeof benchStorage>>>> = {};
  for (const storage of storages) {
    console.log(`${storage}: ${connections} connections, ${warmup} s warm-up, ${duration} s measure, load average ${os.loadavg()[0].toFixed(2)}…`);
    const r = (results[storage] = await benchStorage(storage));
    console.log(
      `SUMMARY headless ${storage}: API read ${r.api.rps} req/s; resolve ${r.resolve.rps} req/s, document ${r.document.rps} req/s: ` +
        `${r.pageViewsPerSecond} page views/s = ${r.pageViewCost}x an API read (target <= 2)`,
    );
    const cpu = (m: Measure) => `${m.cpuMs}${m.dbCpuMs === undefined ? '' : ` + db ${m.dbCpuMs}`}`;
    console.log(`  CPU ms per request: API read ${cpu(r.api)}; resolve ${cpu(r.resolve)}; document ${cpu(r.document)}`);
  }
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
    loadAverage: { before: loadBefore, after: Math.round(os.loadavg()[0] * 100) / 100 },
    connections,
    warmupSeconds: warmup,
    durationSeconds: duration,
    results,
  };
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  console.log(`written to ${path.relative(root, file)}`);
  await cleanUp();
} catch (err) {
  await abort(`bench/headless.ts failed: ${err instanceof Error ? err.message : String(err)}`, 1);
}
