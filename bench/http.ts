// Hot-path HTTP benchmark: GET /v1/spaces/{id} (authenticated read) served by the project's server versus
// a baseline (bench/baseline-server.ts: plain Express, the same two lookups as raw queries, no logging,
// validation or ORM), on embedded PGlite and on PostgreSQL. Each server is its own child process and is
// loaded alone (2 cores: the load generator needs one), with autocannon: a warm-up, then the measure.
//
//   npx tsx bench/http.ts [--storage pglite|postgres|both] [--duration 10] [--connections 32] [--warmup 2]
//                         [--rounds 1] [--pg-url postgres://postgres@127.0.0.1:5432/test] [--profile /tmp/prof]
//                         [--rate-limit 1000000000 (0: off)]
//                         [--baseline-pglite plain|thread] [--mounted] [--caller admin|granted-member]
//                         [--read-cache on|off] [--traces off|unsampled,sampled,always] [--sample-ratio R]
//                         [--out http.json]
//
// `--traces sampled` (or `always`, `unsampled`, or several, comma-separated) measures what OpenTelemetry traces cost instead of
// comparing with the baseline: it starts a local OTLP receiver (bench/otlp-receiver.ts) and, in each round,
// runs OUR server untraced and traced (OTEL_EXPORTER_OTLP_ENDPOINT at the receiver; `sampled` is the
// server's default sampler, parentbased_traceidratio at its default ratio, or at `--sample-ratio R`; `always`
// is always_on, `unsampled` always_off), in an order that rotates from
// round to round, and reports each traced variant against the untraced one (medians of the rounds), with
// the spans the receiver got per request. Results go to bench/results/http-traces-cache-<on|off>.json.
// The PGlite baseline runs PGlite as a plain Express server would (in-process, over a data folder);
// `--baseline-pglite thread` gives it the project's PGlite thread instead.
// `--caller granted-member` reads as a member with the organization's `read` role who reaches the space,
// made private (defaultLevel null), only through grants (their own `edit` and their team's `comment`),
// so the access query's grant lookups are in the measure; the default caller is the organization's admin.
// Also read from BENCH_STORAGE, BENCH_DURATION, BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_ROUNDS, BENCH_PG_URL.
// With several rounds (project then baseline, again and again) the medians are reported: on a shared
// machine, one round can be skewed by other work. Results go to bench/results/http.json. `--profile DIR` runs both servers under `node --cpu-prof` (profiles in
// DIR/<server>-<storage>/, the largest is the main thread's; summarize with bench/profile-summary.ts) and
// writes no results, since the profiler slows the servers down. On PostgreSQL the database backends' CPU
// per request is measured too (server + database CPU is what bounds req/s on 2 cores).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { benchRun, type Server } from './support/bench-run.js';
import { cpuTimeMs, databaseCpuMs, databaseCpuUsed, medianOf, round2 } from './support/measures.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: process.env.BENCH_STORAGE ?? 'both' },
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? '10' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS ?? '32' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? '2' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '1' },
    // Rate limiting on (the server's default) but far above what the load sends with its one token, so its
    // cost is measured and no request refused; `--rate-limit 0` turns it off for a comparison.
    'rate-limit': { type: 'string', default: process.env.BENCH_RATE_LIMIT ?? '1000000000' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    profile: { type: 'string' },
    // Where the results go, under bench/results/ (e.g. http-rate-limit-off.json for a comparison run).
    out: { type: 'string' },
    'baseline-pglite': { type: 'string', default: process.env.BENCH_BASELINE_PGLITE ?? 'plain' },
    // The project as a host app runs it: createDocsApi's handler mounted at /v1 of a plain Express app
    // (bench/mounted-server.ts) instead of the standalone server.
    mounted: { type: 'boolean', default: false },
    caller: { type: 'string', default: process.env.BENCH_CALLER ?? 'admin' },
    // The project's READ_CACHE: `off` makes each of its reads anew (server/http/read-cache.ts), to measure
    // the read itself; `on` (the server's default) gives the repeated read its held answer.
    'read-cache': { type: 'string', default: process.env.BENCH_READ_CACHE ?? 'on' },
    traces: { type: 'string', default: process.env.BENCH_TRACES ?? 'off' },
    // The `sampled` variant's OTEL_TRACES_SAMPLER_ARG; unset, the server's own default.
    'sample-ratio': { type: 'string' },
  },
});
if (opts.caller !== 'admin' && opts.caller !== 'granted-member') throw new Error(`--caller: admin or granted-member, not ${opts.caller}`);
if (opts['read-cache'] !== 'on' && opts['read-cache'] !== 'off') throw new Error(`--read-cache: on or off, not ${opts['read-cache']}`);
type TraceVariant = 'unsampled' | 'sampled' | 'always';
const traceVariants: TraceVariant[] = opts.traces === 'off' ? [] : (opts.traces!.split(',') as TraceVariant[]);
if (!traceVariants.every((v) => v === 'unsampled' || v === 'sampled' || v === 'always') || new Set(traceVariants).size !== traceVariants.length) {
  throw new Error(`--traces: off, or one or more of unsampled, sampled, always (comma-separated), not ${opts.traces}`);
}
/** The sampler settings of each traced variant (OpenTelemetry's own variables; `sampled` is the server's default). */
const samplerEnv: Record<TraceVariant, Record<string, string>> = {
  // Traces configured, no request sampled: what the hooks cost every request.
  unsampled: { OTEL_TRACES_SAMPLER: 'always_off' },
  sampled: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', ...(opts['sample-ratio'] !== undefined && { OTEL_TRACES_SAMPLER_ARG: opts['sample-ratio'] }) },
  always: { OTEL_TRACES_SAMPLER: 'always_on' },
};
// The bench decides which server is traced: none inherits a collector from this shell.
for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
type Storage = 'pglite' | 'postgres';
const storages: Storage[] = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage as Storage];
if (!storages.every((s) => s === 'pglite' || s === 'postgres')) throw new Error(`--storage: pglite, postgres or both, not ${opts.storage}`);
const duration = Number(opts.duration);
const warmup = Number(opts.warmup);
const connections = Number(opts.connections);
const rounds = Number(opts.rounds);

const root = path.resolve(import.meta.dirname, '..');
// main.ts makes this the token of the admin it creates on an empty database: no seeding code needed.
const token = 'bench-token-0123456789abcdef';
const auth = { authorization: `Bearer ${token}` };
// The token the load reads with: the admin's, or the granted member's (made at the first start).
let loadAuth = auth;
// Bounded in time whatever happens: two loads and two start-ups (90 s each at most) per storage and round,
// and two set-up starts per storage.
const serversPerRound = traceVariants.length > 0 ? 1 + traceVariants.length : 2;
const limitMs = storages.length * (rounds * serversPerRound * ((warmup + duration) * 1000 + 90_000) + 2 * 90_000) + 60_000;
const { tmp, cleanups, cleanUp, abort, startServer, call } = benchRun('http', limitMs, auth);

interface Measure {
  /** answered in the measured run (warm-up excluded) */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /**
   * CPU time of the server process per request, in ms: steadier than req/s when other work shares the
   * machine. With PGlite it includes the database; with PostgreSQL, the database's own processes are not in it.
   */
  cpuMs: number;
  /**
   * PostgreSQL only: CPU time of the database's backends serving this server, per request, in ms. The two
   * servers share the 2 cores with PostgreSQL, so server + database CPU per request is what bounds req/s.
   */
  dbCpuMs?: number;
}

/** Warm-up, then the measured run; any answer other than 2xx, or any socket error, fails the bench. */
async function load(name: string, { url, pid }: Server, resource: string, database?: string): Promise<Measure & { answered: number }> {
  let answered = 0;
  for (const [phase, seconds] of [['warm-up', warmup], ['measure', duration]] as const) {
    if (seconds <= 0) continue;
    const cpuBefore = cpuTimeMs(pid);
    const dbBefore = databaseCpuMs(database);
    const r = await autocannon({ url: url + resource, connections, duration: seconds, headers: loadAuth });
    const cpu = cpuTimeMs(pid) - cpuBefore;
    const dbCpu = databaseCpuUsed(dbBefore, databaseCpuMs(database));
    if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.requests.total === 0) {
      throw new Error(`${name} ${phase}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}`);
    }
    answered += r.requests.total;
    if (phase === 'measure') {
      const { requests, latency } = r;
      const cpuMs = Math.round((cpu / requests.total) * 1000) / 1000;
      const perRequest = (ms: number) => Math.round((ms / requests.total) * 1000) / 1000;
      return {
        requests: requests.total,
        rps: Math.round(requests.average),
        p50: latency.p50,
        p99: latency.p99,
        cpuMs,
        ...(database && { dbCpuMs: perRequest(dbCpu) }),
        answered,
      };
    }
  }
  throw new Error('--duration must be positive');
}

/** A fresh PostgreSQL database `bench_http_<pid>`, dropped at the end. */
async function createDatabase(): Promise<string> {
  const name = `bench_http_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: opts['pg-url'] });
    await client.connect();
    try {
      await client.query(sql);
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

interface StorageResult {
  /** medians over the rounds */
  baseline: Measure;
  project: Measure;
  /** project req/s ÷ baseline req/s */
  ratio: number;
  /** project CPU ms per request ÷ baseline's */
  cpuRatio: number;
  /** PostgreSQL: (server + database) CPU per request, project ÷ baseline */
  totalCpuRatio?: number;
  rounds?: { baseline: Measure; project: Measure }[];
}

/**
 * The admin CLI (scripts/admin.ts) on the bench's storage; its printed line. Not execFileSync: a blocked
 * event loop misses the server closing idle keep-alive sockets, and the next call would be sent on one.
 */
async function adminCli(storageEnv: Record<string, string>, ...args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...storageEnv };
  if (!storageEnv.DATABASE_URL) delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { cwd: root, env, encoding: 'utf8' });
  return stdout.trim();
}

/**
 * `--caller granted-member`: a member with the `read` role, in a team, given `edit` on the space (and the
 * team `comment`), which is made private; the load then reads with their token. The user and token come
 * from the admin CLI (the API makes no token for another user), run between two starts of the server: an
 * embedded PGlite folder is open in one process at a time. The grants are then given through the API.
 */
async function createMember(organizationId: string, storageEnv: Record<string, string>) {
  const userId = await adminCli(storageEnv, 'create-user', '--email', 'granted@bench.example', '--name', 'Granted member');
  await adminCli(storageEnv, 'add-member', '--org', organizationId, '--user', userId, '--role', 'read');
  const memberToken = await adminCli(storageEnv, 'create-token', '--user', userId, '--label', 'bench');
  return { userId, memberToken };
}

async function grantMember(url: string, organizationId: string, spaceId: string, member: { userId: string; memberToken: string }) {
  const team = await call('PUT', `${url}/v1/orgs/${organizationId}/teams`, { title: 'Bench team' });
  await call('PUT', `${url}/v1/orgs/${organizationId}/teams/${team.id}/members/${member.userId}`);
  await call('PATCH', `${url}/v1/spaces/${spaceId}`, { defaultLevel: null });
  await call('PATCH', `${url}/v1/spaces/${spaceId}/permissions/users/${member.userId}`, { role: 'edit' });
  await call('PATCH', `${url}/v1/spaces/${spaceId}/permissions/teams/${team.id}`, { role: 'comment' });
  loadAuth = { authorization: `Bearer ${member.memberToken}` };
}

/** Starts a server, uses it, stops it whatever happens. */
async function withServer<T>(starting: Promise<Server>, use: (server: Server) => Promise<T>): Promise<T> {
  const server = await starting;
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** A load's measure without its count of every answer (the warm-up's included). */
function measured({ answered: _, ...measure }: Measure & { answered: number }): Measure {
  return measure;
}

/** A traced variant of our server against the untraced one: medians of the rounds. */
interface TracedResult extends Measure {
  /** spans the receiver got per request answered (the warm-up's included) */
  spansPerRequest: number;
  /** traced req/s ÷ untraced req/s */
  ratio: number;
  /** traced CPU ms per request ÷ untraced */
  cpuRatio: number;
  /** PostgreSQL: (server + database) CPU per request, traced ÷ untraced */
  totalCpuRatio?: number;
}

interface TracesResult {
  untraced: Measure;
  unsampled?: TracedResult;
  sampled?: TracedResult;
  always?: TracedResult;
  rounds?: Partial<Record<'untraced' | TraceVariant, Measure & { spansPerRequest?: number }>>[];
}

/** The local OTLP receiver of `--traces` (started once, for every storage). */
let receiver: Promise<Server> | undefined;

async function receivedSpans(url: string): Promise<number> {
  const res = await fetch(`${url}/stats`);
  if (res.status !== 200) throw new Error(`otlp-receiver /stats: ${res.status}`);
  return ((await res.json()) as { spans: number }).spans;
}

/**
 * `--traces`: our server untraced and traced, each variant once a round, the order rotating from round to
 * round (a burst of other work on the shared machine then hits each variant alike). A traced server's
 * spans are counted once it has stopped (its shutdown sends the last batch).
 */
async function benchTraces(
  storage: Storage,
  projectScript: string,
  projectEnv: Record<string, string>,
  spaceUrl: string,
  database: string | undefined,
  profileArgs: (server: string) => string[],
): Promise<TracesResult> {
  receiver ??= startServer('otlp-receiver', 'bench/otlp-receiver.ts', {});
  const { url: receiverUrl } = await receiver;
  const variants: ('untraced' | TraceVariant)[] = ['untraced', ...traceVariants];
  const results: Partial<Record<'untraced' | TraceVariant, Measure & { spansPerRequest?: number }>>[] = [];
  for (let round = 0; round < rounds; round++) {
    const result: (typeof results)[number] = {};
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(i + round) % variants.length];
      const env = variant === 'untraced' ? projectEnv : { ...projectEnv, OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, ...samplerEnv[variant] };
      const spansBefore = await receivedSpans(receiverUrl);
      const name = `project-${storage}-${variant}`;
      const { answered, ...measure } = await withServer(startServer(name, projectScript, env, profileArgs(name)), async (server) => {
        const read = await fetch(server.url + spaceUrl, { headers: loadAuth });
        if (read.status !== 200) throw new Error(`GET ${spaceUrl} as the ${opts.caller}: ${read.status} ${await read.text()}`);
        return load(`${variant}/${storage}`, server, spaceUrl, database);
      });
      const spans = (await receivedSpans(receiverUrl)) - spansBefore;
      if ((variant === 'sampled' || variant === 'always') && spans === 0) throw new Error(`${name}: the receiver got no span`);
      result[variant] = variant === 'untraced' ? measure : { ...measure, spansPerRequest: Math.round((spans / (answered + 1)) * 1000) / 1000 };
    }
    results.push(result);
  }
  const untraced = medianOf(results.map((r) => r.untraced!));
  const out: TracesResult = { untraced };
  for (const variant of traceVariants) {
    const traced = medianOf(results.map((r) => r[variant]!)) as Measure & { spansPerRequest: number };
    out[variant] = {
      ...traced,
      ratio: round2(traced.rps / untraced.rps),
      cpuRatio: round2(traced.cpuMs / untraced.cpuMs),
      ...(traced.dbCpuMs !== undefined && { totalCpuRatio: round2((traced.cpuMs + traced.dbCpuMs) / (untraced.cpuMs + untraced.dbCpuMs!)) }),
    };
  }
  if (rounds > 1) out.rounds = results;
  return out;
}

async function benchStorage(storage: Storage): Promise<StorageResult | TracesResult> {
  // Both servers use the same data one after the other (never together, so a PGlite folder is only ever
  // open in one process, and neither server competes with the other for the 2 cores).
  const storageEnv: Record<string, string> =
    storage === 'pglite' ? { DATA_DIR: path.join(tmp, 'pglite') } : { DATABASE_URL: await createDatabase() };
  const database = storageEnv.DATABASE_URL && new URL(storageEnv.DATABASE_URL).pathname.slice(1);
  // One folder per server: the tsx loader thread writes a (small) profile of its own next to the main one.
  const profileArgs = (server: string) => (opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile, server)}`] : []);
  const projectEnv = { ...storageEnv, LOG_LEVEL: 'info', BOOTSTRAP_TOKEN: token, RATE_LIMIT_PER_MINUTE: opts['rate-limit'], READ_CACHE: opts['read-cache'] };
  const projectScript = opts.mounted ? 'bench/mounted-server.ts' : 'server/main.ts';
  // Set-up, before the rounds: main.ts migrates the empty database and creates an organization, its admin
  // and our token; the bench's space is made through the API, and the granted member (see grantMember).
  const { organizationId, spaceUrl } = await withServer(startServer(`setup-${storage}`, projectScript, projectEnv), async (server) => {
    const orgs = await call('GET', `${server.url}/v1/orgs`);
    const space = await call('POST', `${server.url}/v1/orgs/${orgs.items[0].id}/spaces`, { title: 'Bench' });
    return { organizationId: orgs.items[0].id as string, spaceUrl: `/v1/spaces/${space.id}` };
  });
  if (opts.caller === 'granted-member') {
    const member = await createMember(organizationId, storageEnv);
    await withServer(startServer(`setup-${storage}`, projectScript, projectEnv), (server) =>
      grantMember(server.url, organizationId, spaceUrl.slice('/v1/spaces/'.length), member),
    );
  }

  if (traceVariants.length > 0) return benchTraces(storage, projectScript, projectEnv, spaceUrl, database, profileArgs);

  // Rounds alternate the two servers, so that a burst of other work on the machine hits both alike.
  const results: { baseline: Measure; project: Measure }[] = [];
  for (let round = 0; round < rounds; round++) {
    const projectServer = startServer(`project-${storage}`, projectScript, projectEnv, profileArgs(`project-${storage}`));
    const project = await withServer(projectServer, async (server) => {
      const read = await fetch(server.url + spaceUrl, { headers: loadAuth });
      if (read.status !== 200) throw new Error(`GET ${spaceUrl} as the ${opts.caller}: ${read.status} ${await read.text()}`);
      return measured(await load(`project/${storage}`, server, spaceUrl, database));
    });
    const baselineEnv = { ...storageEnv, ...(opts['baseline-pglite'] === 'thread' && { BASELINE_PGLITE: 'thread' }) };
    const baselineServer = startServer(`baseline-${storage}`, 'bench/baseline-server.ts', baselineEnv, profileArgs(`baseline-${storage}`));
    const baseline = await withServer(baselineServer, async (server) => {
      const row = await call('GET', server.url + spaceUrl);
      if (!spaceUrl.endsWith(`/${row.id}`)) throw new Error(`baseline answered another row: ${JSON.stringify(row)}`);
      return measured(await load(`baseline/${storage}`, server, spaceUrl, database));
    });
    results.push({ baseline, project });
  }
  const baseline = medianOf(results.map((r) => r.baseline));
  const project = medianOf(results.map((r) => r.project));
  return {
    baseline,
    project,
    ratio: round2(project.rps / baseline.rps),
    cpuRatio: round2(project.cpuMs / baseline.cpuMs),
    ...(project.dbCpuMs !== undefined && { totalCpuRatio: round2((project.cpuMs + project.dbCpuMs) / (baseline.cpuMs + baseline.dbCpuMs!)) }),
    ...(rounds > 1 && { rounds: results }),
  };
}

const loadBefore = Math.round(os.loadavg()[0] * 100) / 100;
// The server changes often: the results say which code they measured (a + when it had uncommitted changes).
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const code = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'server', 'contract', 'generated') ? '+' : ''}`;
try {
  const results: Partial<Record<Storage, StorageResult | TracesResult>> = {};
  for (const storage of storages) {
    console.log(`${storage}: ${connections} connections, ${warmup} s warm-up, ${duration} s measure, ${rounds} round(s)…`);
    results[storage] = await benchStorage(storage);
  }

  const row = (cells: (string | number)[]) => console.log(cells.map((c, i) => String(c).padStart(i === 0 ? 18 : 12)).join(''));
  // One line per figure, for the record and for a rerun on a quiet machine.
  const limiting = `${Number(opts['rate-limit']) > 0 ? 'rate limiting on' : 'rate limiting off'}, read cache ${opts['read-cache']}`;
  const summaries: string[] = [];
  if (traceVariants.length > 0) {
    row(['', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'DB ms/req', 'spans/req', 'req/s ratio', 'CPU ratio', '+DB ratio']);
    for (const [storage, r] of Object.entries(results) as [Storage, TracesResult][]) {
      row([`${storage} untraced`, r.untraced.rps, r.untraced.p50, r.untraced.p99, r.untraced.cpuMs, r.untraced.dbCpuMs ?? '']);
      for (const variant of traceVariants) {
        const t = r[variant]!;
        row([`${storage} ${variant}`, t.rps, t.p50, t.p99, t.cpuMs, t.dbCpuMs ?? '', t.spansPerRequest, t.ratio, t.cpuRatio, t.totalCpuRatio ?? '']);
        summaries.push(
          `SUMMARY http traces ${storage} (${limiting}, median of ${rounds}): ${{ unsampled: 'always_off', sampled: `parentbased_traceidratio ${opts['sample-ratio'] ?? 'at the default ratio'}`, always: 'always_on' }[variant]} ${t.rps} req/s vs untraced ${r.untraced.rps} req/s = ${t.ratio}x (target >= 0.95 sampled); CPU per request ${t.cpuRatio}x${t.totalCpuRatio !== undefined ? `, with the database's ${t.totalCpuRatio}x` : ''}; ${t.spansPerRequest} spans per request`,
        );
      }
    }
  } else {
    row(['', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'DB ms/req', 'req/s ratio', 'CPU ratio', '+DB ratio']);
    for (const [storage, r] of Object.entries(results) as [Storage, StorageResult][]) {
      row([`${storage} baseline`, r.baseline.rps, r.baseline.p50, r.baseline.p99, r.baseline.cpuMs, r.baseline.dbCpuMs ?? '']);
      row([`${storage} project`, r.project.rps, r.project.p50, r.project.p99, r.project.cpuMs, r.project.dbCpuMs ?? '', r.ratio, r.cpuRatio, r.totalCpuRatio ?? '']);
      summaries.push(
        `SUMMARY http ${storage} (${limiting}, median of ${rounds}): project ${r.project.rps} req/s vs baseline ${r.baseline.rps} req/s = ${r.ratio}x (target >= 1.0); CPU per request ${r.cpuRatio}x${r.totalCpuRatio !== undefined ? `, with the database's ${r.totalCpuRatio}x` : ''}`,
      );
    }
  }
  for (const line of summaries) console.log(line);

  if (opts.profile) {
    console.log(`profiles in ${path.resolve(opts.profile)} (results not recorded: the profiler slows the servers)`);
  } else {
    const out = opts.out ?? (traceVariants.length > 0 ? `http-traces-cache-${opts['read-cache']}.json` : 'http.json');
    const file = path.resolve(import.meta.dirname, 'results', out);
    mkdirSync(path.dirname(file), { recursive: true });
    const record = {
      date: new Date().toISOString(),
      code,
      node: process.version,
      cpus: os.cpus().length,
      // Other work on the machine skews the numbers: the 1-minute load average says how much (the bench
      // itself adds about 2 by the end).
      loadAverage: { before: loadBefore, after: Math.round(os.loadavg()[0] * 100) / 100 },
      request: 'GET /v1/spaces/{id}',
      caller: opts.caller,
      readCache: opts['read-cache'],
      ...(traceVariants.length > 0 && { traces: traceVariants.map((v) => `${v}: ${Object.entries(samplerEnv[v]).map(([k, x]) => `${k}=${x}`).join(' ')}`) }),
      baselinePglite: opts['baseline-pglite'] === 'thread' ? 'on the project\'s PGlite thread' : 'in-process, over a data folder',
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
  await abort(`bench/http.ts failed: ${err instanceof Error ? `${err.message}${err.cause ? ` (${String(err.cause)})` : ""}` : String(err)}`, 1);
}
