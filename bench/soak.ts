// Soak: the real server (a child process, as `npm start` runs it) under a mixed workload for a long time,
// to find what only time shows: errors under sustained load, latency drifting up, memory growing.
//
//   npx tsx bench/soak.ts [--storage pglite|postgres|both] [--duration 10m] [--connections 32] [--warmup 30s]
//                         [--pg-url postgres://postgres@127.0.0.1:5432/test] [--out bench/results/soak.json]
//                         [--server-env NAME=value …] [--rate-limit 1000000000]
//
// Each of --connections workers loops over: read a space (40%), list spaces (15%), search the
// organization (10%), create a space (25%), and open + write + merge a change request (10%, 3 writes).
// Recorded per storage: requests, 5xx (must be 0), other non-2xx, p50/p99 (ms), requests/s, and the
// server's RSS after the warm-up and at the end (growth must stay under 10%), in bench/results/soak.json
// (merged per storage) and bench/results/soak.md. Exit code 1 when a limit is broken.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { freePort } from '../test/support/child-server.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '10m' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '30s' },
    // Extra server settings, e.g. --server-env DB_POOL_SIZE=20 (repeatable), to compare configurations.
    'server-env': { type: 'string', multiple: true, default: [] },
    // Rate limiting on (the server's default) but far above what the one token sends, so nothing is refused.
    'rate-limit': { type: 'string', default: '1000000000' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    out: { type: 'string', default: path.resolve(import.meta.dirname, 'results', 'soak.json') },
    // To find what grows: the server writes a V8 heap snapshot into this folder after the warm-up and
    // at the end (each pauses it for a few seconds; not for a recorded run).
    'heap-snapshots': { type: 'string' },
  },
});

/** "20s", "10m", "600" (seconds) → ms. */
function ms(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 } as const)[(m[2] ?? 's') as 'ms' | 's' | 'm'];
}
type Storage = 'pglite' | 'postgres';
const storages: Storage[] = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage as Storage];
if (!storages.every((s) => s === 'pglite' || s === 'postgres')) throw new Error(`--storage: pglite, postgres or both, not ${opts.storage}`);
const durationMs = ms(opts.duration!);
const warmupMs = ms(opts.warmup!);
const connections = Number(opts.connections);
const token = 'soak-token-0123456789abcdef';
const root = path.resolve(import.meta.dirname, '..');

const serverEnv = Object.fromEntries(opts['server-env']!.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));

/** The server process's resident memory in MiB (Linux /proc). */
function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const snapshots = opts['heap-snapshots'] && path.resolve(opts['heap-snapshots']);
  if (snapshots) mkdirSync(snapshots, { recursive: true });
  const child = spawn(process.execPath, [...(snapshots ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshots}`] : []), '--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: opts['rate-limit']!, ...serverEnv, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('the server exited at start');
    const ok = await fetch(`${base}/ready`).then((r) => r.ok, () => false);
    if (ok) return { child, base };
    if (i > 600) throw new Error('the server did not become ready in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Tally {
  requests: number;
  serverErrors: number;
  otherErrors: number;
  examples: string[];
  latencies: number[];
  /** latencies by kind of request (read, list, search, create, cr-open, cr-write, cr-merge) */
  byKind: Map<string, number[]>;
}

async function soak(storage: Storage) {
  let scratch: ScratchDatabase | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  if (storage === 'postgres') {
    scratch = await createScratchDatabase(opts['pg-url']!, { prefix: 'dwapi_soak', poolSize: 1 });
    env = { DATABASE_URL: scratch.url };
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'dwapi-soak-'));
    env = { DATA_DIR: dataDir };
  }
  const { child, base } = await startServer(env);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const tally: Tally = { requests: 0, serverErrors: 0, otherErrors: 0, examples: [], latencies: [], byKind: new Map() };
  let measuring = false;

  async function send(method: string, pathname: string, body?: unknown, kind = 'other'): Promise<any> {
    const started = performance.now();
    let status = 0;
    let json: any;
    try {
      const res = await fetch(`${base}/v1${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      status = res.status;
      const text = await res.text();
      json = text ? JSON.parse(text) : undefined;
    } catch (err) {
      json = { error: String(err) };
    }
    if (measuring) {
      tally.requests++;
      const took = performance.now() - started;
      tally.latencies.push(took);
      let kindLatencies = tally.byKind.get(kind);
      if (!kindLatencies) tally.byKind.set(kind, (kindLatencies = []));
      kindLatencies.push(took);
      if (status >= 500 || status === 0) tally.serverErrors++;
      else if (status >= 300) tally.otherErrors++;
      if ((status >= 300 || status === 0) && tally.examples.length < 10) tally.examples.push(`${method} ${pathname} → ${status} ${JSON.stringify(json).slice(0, 200)}`);
    }
    return status >= 200 && status < 300 ? json : undefined;
  }

  const org = (await send('GET', '/orgs')).items[0].id as string;
  const spaces: string[] = [];
  for (let i = 0; i < 50; i++) spaces.push((await send('POST', `/orgs/${org}/spaces`, { title: `Seed ${i} handbook` })).id);
  const pick = () => spaces[Math.floor(Math.random() * spaces.length)];
  const words = ['handbook', 'install', 'tokens', 'guide', 'faq', 'release'];

  let running = true;
  async function worker(n: number) {
    for (let i = 0; running; i++) {
      const r = Math.random();
      if (r < 0.4) await send('GET', `/spaces/${pick()}`, undefined, 'read');
      else if (r < 0.55) await send('GET', `/orgs/${org}/spaces?limit=20`, undefined, 'list');
      else if (r < 0.65) await send('GET', `/orgs/${org}/search?query=${words[i % words.length]}`, undefined, 'search');
      else if (r < 0.9) {
        const created = await send('POST', `/orgs/${org}/spaces`, { title: `Space ${n}-${i} ${words[i % words.length]}` }, 'create');
        // A bounded pool: reads spread over recent spaces without the array growing for ever.
        if (created) spaces[spaces.length < 2000 ? spaces.length : Math.floor(Math.random() * 2000)] = created.id;
      } else {
        const space = pick();
        const cr = await send('POST', `/spaces/${space}/change-requests`, { subject: `Soak ${n}-${i}` }, 'cr-open');
        if (!cr) continue;
        const wrote = await send('POST', `/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
          changes: [{ operation: 'insert_page', document: { markdown: `# Page ${n}-${i}\n\nAbout ${words[i % words.length]}.` } }],
        }, 'cr-write');
        if (wrote) await send('POST', `/spaces/${space}/change-requests/${cr.id}/merge`, undefined, 'cr-merge');
      }
    }
  }

  const workers = Array.from({ length: connections }, (_, n) => worker(n));
  await new Promise((resolve) => setTimeout(resolve, warmupMs));
  measuring = true;
  if (opts['heap-snapshots']) child.kill('SIGUSR2');
  const rssStart = rssMiB(child.pid!);
  const samples: { atS: number; rssMiB: number }[] = [{ atS: 0, rssMiB: rssStart }];
  const startedAt = Date.now();
  const sampler = setInterval(() => samples.push({ atS: Math.round((Date.now() - startedAt) / 1000), rssMiB: rssMiB(child.pid!) }), 10_000);
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  const rssEnd = rssMiB(child.pid!);
  measuring = false;
  if (opts['heap-snapshots']) child.kill('SIGUSR2');
  running = false;
  clearInterval(sampler);
  await Promise.all(workers);
  const elapsedS = (Date.now() - startedAt) / 1000;

  child.kill('SIGTERM');
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await scratch?.dispose();

  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
  };
  const pct = (p: number) => percentile(tally.latencies, p);
  const byKind = Object.fromEntries(
    [...tally.byKind].map(([kind, values]) => [kind, { requests: values.length, p50Ms: percentile(values, 50), p99Ms: percentile(values, 99) }]),
  );
  const growth = Math.round(((rssEnd - rssStart) / rssStart) * 1000) / 10;
  return {
    storage,
    durationS: Math.round(elapsedS),
    warmupS: warmupMs / 1000,
    connections,
    requests: tally.requests,
    requestsPerSecond: Math.round(tally.requests / elapsedS),
    serverErrors: tally.serverErrors,
    otherNon2xx: tally.otherErrors,
    p50Ms: pct(50),
    p99Ms: pct(99),
    /** the target: p99 under 4× p50 */
    p99OverP50: Math.round((pct(99) / pct(50)) * 100) / 100,
    byKind,
    rssStartMiB: rssStart,
    rssEndMiB: rssEnd,
    rssPeakMiB: Math.max(...samples.map((s) => s.rssMiB), rssEnd),
    rssGrowthPercent: growth,
    exitCodeOnSigterm: exitCode,
    examples: tally.examples,
    rssSamples: samples,
    ok: tally.serverErrors === 0 && growth < 10 && exitCode === 0,
    at: new Date().toISOString(),
    machine: `${os.cpus().length} cores, load average at end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (shared with other work)`,
  };
}

const results: Record<string, unknown> = existsSync(opts.out!) ? JSON.parse(readFileSync(opts.out!, 'utf8')) : {};
let failed = false;
for (const storage of storages) {
  console.log(`soak on ${storage}: ${connections} connections, warm-up ${warmupMs / 1000} s, then ${durationMs / 1000} s…`);
  const result = await soak(storage);
  results[storage] = result;
  failed ||= !result.ok;
  const { examples, rssSamples, ...summary } = result;
  console.log(summary);
  if (examples.length > 0) console.log(examples.join('\n'));
  console.log(
    `SUMMARY soak ${storage} (${connections} connections, ${result.durationS} s): ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, p99/p50 ${result.p99OverP50} (target < 4), 5xx ${result.serverErrors}, RSS growth ${result.rssGrowthPercent} %`,
  );
}
mkdirSync(path.dirname(opts.out!), { recursive: true });
writeFileSync(opts.out!, `${JSON.stringify(results, null, 2)}\n`);
if (failed) {
  console.error('soak: a limit was broken (5xx, RSS growth ≥ 10 %, or an unclean exit)');
  process.exit(1);
}
