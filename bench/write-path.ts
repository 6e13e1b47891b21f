// Write-path benchmark: the project's server versus the baseline (bench/baseline-server.ts with
// bench/baseline-writes.ts: plain Express, the same rows written in one transaction of plain SQL), in the
// same run, on PGlite and on PostgreSQL. Two loads, each measured on both servers:
//   create  POST /v1/orgs/{id}/spaces                                  (createSpace)
//   cycle   POST /v1/spaces/{id}/change-requests → POST …/content (insert a page) → POST …/merge
//           (createChangeRequest, updateChangeRequestContent, mergeChangeRequest), each connection on a
//           space of its own, again and again
//
//   npx tsx bench/write-path.ts [--storage pglite|postgres|both] [--load create|cycle|both] [--duration 10] [--connections 32] [--warmup 2]
//                               [--rounds 1] [--pg-url postgres://postgres@127.0.0.1:5432/test]
//                               [--rate-limit 1000000000 (0: off)] [--profile DIR] [--out write-path.json]
//
// Each round starts the project, loads it (create, then cycle), stops it, then the same with the baseline,
// on the same data. Prints one SUMMARY line per storage and load; results (medians of the rounds) go to
// bench/results/write-path.json. `--profile DIR` runs the servers under `node --cpu-prof` and records nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchRun, type Server } from './support/bench-run.js';
import { cpuTimeMs, medianOf, round2 } from './support/measures.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    load: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    'rate-limit': { type: 'string', default: '1000000000' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    profile: { type: 'string' },
    out: { type: 'string', default: 'write-path.json' },
  },
});
type Storage = 'pglite' | 'postgres';
type Load = 'create' | 'cycle';
const storages: Storage[] = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage as Storage];
const loads: Load[] = opts.load === 'both' ? ['create', 'cycle'] : [opts.load as Load];
const duration = Number(opts.duration);
const warmup = Number(opts.warmup);
const connections = Number(opts.connections);
const rounds = Number(opts.rounds);
const root = path.resolve(import.meta.dirname, '..');
const token = 'bench-token-0123456789abcdef';
const auth = { authorization: `Bearer ${token}` };
const json = { ...auth, 'content-type': 'application/json' };
const limitMs = storages.length * rounds * 2 * (2 * (warmup + duration) * 1000 + 90_000) + 60_000;
const { tmp, cleanups, cleanUp, abort, startServer, call } = benchRun('write-path', limitMs, auth);

interface Measure {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** server CPU ms per request (with PGlite, the database's included) */
  cpuMs: number;
}

/** The autocannon options of a load; `spaces` are the spaces the cycle's connections take one each. */
function loadOptions(load: Load, url: string, organizationId: string, spaces: string[]): autocannon.Options {
  if (load === 'create') {
    return { url: `${url}/v1/orgs/${organizationId}/spaces`, method: 'POST', headers: json, body: JSON.stringify({ title: 'Bench write' }) };
  }
  let next = 0;
  const spaceOf = (context: Record<string, unknown>) => (context.space ??= spaces[next++ % spaces.length]) as string;
  return {
    url,
    headers: json,
    requests: [
      {
        method: 'POST',
        setupRequest: (req, context) => ({ ...req, path: `/v1/spaces/${spaceOf(context)}/change-requests`, body: JSON.stringify({ subject: 'Bench' }) }),
        onResponse: (_status, body, context) => {
          context.cr = (JSON.parse(body) as { id: string }).id;
        },
      },
      {
        method: 'POST',
        setupRequest: (req, context) => ({
          ...req,
          path: `/v1/spaces/${spaceOf(context)}/change-requests/${context.cr as string}/content?compat=false`,
          body: JSON.stringify({ changes: [{ operation: 'insert_page', document: { markdown: '# Bench page\n\nWritten by bench/write-path.ts.' } }] }),
        }),
      },
      { method: 'POST', setupRequest: (req, context) => ({ ...req, path: `/v1/spaces/${spaceOf(context)}/change-requests/${context.cr as string}/merge` }) },
    ],
  };
}

async function load(name: string, server: Server, options: autocannon.Options): Promise<Measure> {
  for (const [phase, seconds] of [['warm-up', warmup], ['measure', duration]] as const) {
    if (seconds <= 0) continue;
    const cpuBefore = cpuTimeMs(server.pid);
    const r = await autocannon({ ...options, connections, duration: seconds });
    const cpu = cpuTimeMs(server.pid) - cpuBefore;
    if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.requests.total === 0) {
      // The server's log lines of refused requests say which and why (the scratch folder goes with the run).
      // (The baseline logs nothing but the errors Express prints, stack traces whose first line names the error.)
      const refused = readFileSync(server.logFile, 'utf8').split('\n').filter((line) => /"status":[45]\d\d|"level":(40|50)|^\w*Error\b/.test(line));
      throw new Error(`${name} ${phase}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}; the server logged:\n${refused.slice(0, 8).join('\n')}`);
    }
    if (phase === 'measure') {
      return {
        requests: r.requests.total,
        rps: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        cpuMs: Math.round((cpu / r.requests.total) * 1000) / 1000,
      };
    }
  }
  throw new Error('--duration must be positive');
}

async function createDatabase(): Promise<string> {
  const name = `bench_write_${process.pid}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: opts['pg-url'] });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  cleanups.push(() => admin(`drop database if exists ${name} with (force)`));
  const url = new URL(opts['pg-url']!);
  url.pathname = `/${name}`;
  return url.toString();
}

interface LoadResult {
  baseline: Measure;
  project: Measure;
  /** project req/s ÷ baseline req/s (target ≥ 0.8) */
  ratio: number;
  cpuRatio: number;
}

async function benchStorage(storage: Storage): Promise<Record<Load, LoadResult>> {
  const storageEnv: Record<string, string> = storage === 'pglite' ? { DATA_DIR: path.join(tmp, 'pglite') } : { DATABASE_URL: await createDatabase() };
  const profileArgs = (server: string) => (opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile, server)}`] : []);
  const projectEnv = { ...storageEnv, LOG_LEVEL: 'info', BOOTSTRAP_TOKEN: token, RATE_LIMIT_PER_MINUTE: opts['rate-limit']! };
  let organizationId = '';
  const spaces: string[] = [];
  const runs: Record<Load, { baseline: Measure; project: Measure }[]> = { create: [], cycle: [] };
  for (let round = 0; round < rounds; round++) {
    for (const which of ['project', 'baseline'] as const) {
      const server = await (which === 'project'
        ? startServer(`project-${storage}`, 'server/main.ts', projectEnv, profileArgs(`project-${storage}`))
        : startServer(`baseline-${storage}`, 'bench/baseline-server.ts', storageEnv, profileArgs(`baseline-${storage}`)));
      try {
        if (!organizationId) {
          // main.ts made an organization, its admin and our token; a space per connection for the cycle.
          organizationId = (await call('GET', `${server.url}/v1/orgs`)).items[0].id;
          for (let i = 0; i < connections; i++) spaces.push((await call('POST', `${server.url}/v1/orgs/${organizationId}/spaces`, { title: `Cycle ${i}` })).id);
        }
        for (const kind of loads) {
          const measure = await load(`${which}/${storage}/${kind}`, server, loadOptions(kind, server.url, organizationId, spaces));
          (runs[kind][round] ??= {} as { baseline: Measure; project: Measure })[which] = measure;
        }
      } finally {
        await server.stop();
      }
    }
  }
  const result = {} as Record<Load, LoadResult>;
  for (const kind of loads) {
    const baseline = medianOf(runs[kind].map((r) => r.baseline));
    const project = medianOf(runs[kind].map((r) => r.project));
    result[kind] = { baseline, project, ratio: round2(project.rps / baseline.rps), cpuRatio: round2(project.cpuMs / baseline.cpuMs) };
  }
  return result;
}

const loadBefore = round2(os.loadavg()[0]);
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const code = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'server', 'contract', 'generated') ? '+' : ''}`;
try {
  const results: Partial<Record<Storage, Record<Load, LoadResult>>> = {};
  for (const storage of storages) {
    console.log(`${storage}: ${connections} connections, ${warmup} s warm-up, ${duration} s measure per load, ${rounds} round(s)…`);
    results[storage] = await benchStorage(storage);
  }
  for (const [storage, byLoad] of Object.entries(results)) {
    for (const [kind, r] of Object.entries(byLoad)) {
      const what = kind === 'create' ? 'createSpace' : 'change request open → write a page → merge (requests)';
      console.log(
        `SUMMARY write-path ${storage} ${kind} [${what}] (median of ${rounds}): project ${r.project.rps} req/s (p50 ${r.project.p50} ms, p99 ${r.project.p99} ms) vs baseline ${r.baseline.rps} req/s (p50 ${r.baseline.p50} ms, p99 ${r.baseline.p99} ms) = ${r.ratio}x (target >= 0.8); CPU per request ${r.cpuRatio}x`,
      );
    }
  }
  if (opts.profile) {
    console.log(`profiles in ${path.resolve(opts.profile)} (results not recorded)`);
  } else {
    const file = path.resolve(import.meta.dirname, 'results', opts.out!);
    mkdirSync(path.dirname(file), { recursive: true });
    const record = {
      date: new Date().toISOString(),
      code,
      node: process.version,
      cpus: os.cpus().length,
      loadAverage: { before: loadBefore, after: round2(os.loadavg()[0]) },
      loads: {
        create: 'POST /v1/orgs/{id}/spaces',
        cycle: 'POST /v1/spaces/{id}/change-requests, POST …/content?compat=false (insert_page), POST …/merge; one space per connection',
      },
      baselinePglite: 'in-process, over a data folder',
      connections,
      rateLimitPerMinute: Number(opts['rate-limit']),
      warmupSeconds: warmup,
      durationSeconds: duration,
      rounds,
      results,
    };
    writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
    console.log(`written to ${path.relative(root, file)}`);
  }
  await cleanUp();
} catch (err) {
  await abort(`bench/write-path.ts failed: ${err instanceof Error ? err.message : String(err)}`, 1);
}
