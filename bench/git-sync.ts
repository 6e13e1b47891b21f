// Git Sync end to end on a repository of 1,000 pages (20 groups of 50 in SUMMARY.md, each page a heading,
// paragraphs, a list, a code block and a table), served over smart HTTP by `git http-backend` on loopback
// (test/support/git-http-server.ts, each answer passed on as Git writes it, as a Git host serves it: the
// import's time is the server's, not this process's buffering of the whole pack first). Measured, from the request to the outcome recorded on the space:
//   import: importGitRepository into an empty space (fetch, read the format, write one revision);
//   export: exportToGitRepository of that space into an empty repository (write the format, commit, push).
//
//   npx tsx bench/git-sync.ts [--storage pglite|postgres|both] [--pages 1000] [--rounds 3] [--large-mb 500]
//     [--tight-memory] [--server-flags='--cpu-prof --cpu-prof-dir=DIR']
//
// `--large-mb N` (0: none) adds a repository of the same pages and N MB of incompressible assets (4 MB
// files, as the format's cap per asset was until GIT_SYNC_MAX_ASSET_BYTES, one shown on each of the first pages), imported and exported once by
// a server in a process of its own (bench/git-sync-server.ts) whose memory (RSS) is sampled every 50 ms:
// its growth over its idle size (after a small import and export) is what an operation costs (and over its
// RSS as the operation began: the export's start holds what the import left); with its CPU
// time (`serverCpuMs`, all its threads), which a loaded machine changes less than the wall time.
//
// Results: bench/results/git-sync.json (the median and the worst of the rounds, each on a fresh space and
// repository; `large`: the large repository's times and memory).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { cpus, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../server/app.js';
import { createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import { createDb, type Database } from '../server/db/client.js';
import { createScratchDatabase } from '../server/db/scratch-database.js';
import { gitSyncHandler, GIT_SYNC } from '../server/git-sync/sync.job.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { startGitHttpServer } from '../test/support/git-http-server.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'pglite' },
    pages: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    'large-mb': { type: 'string', default: '0' },
    'tight-memory': { type: 'boolean', default: false },
    // Node flags for the large repository's server process alone, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` or `--trace-gc`.
    'server-flags': { type: 'string', default: '' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const pageCount = Number(opts.pages);
const rounds = Number(opts.rounds);
const storages = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage!];
process.env.ALLOW_PRIVATE_FETCH = 'true';

function page(n: number): string {
  return [
    `# Page ${n}`,
    `Paragraph one of page ${n}: configure the **server**, set the \`token\` and read [the guide](https://docs.example.com/${n}).`,
    '- install the CLI\n- sign in\n- publish',
    '```bash\nnpm install -g example-cli\nexample login\n```',
    '| Option | Default |\n| --- | --- |\n| `timeout` | 30 s |',
    `Paragraph two of page ${n}.`,
  ].join('\n\n');
}

/** The repository's files: README, SUMMARY.md with 20 groups, and `pageCount` pages under group folders. */
function repositoryFiles(): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Welcome\n\nThe bench docs.\n' };
  const summary = ['# Table of contents', '', '* [Welcome](README.md)'];
  const perGroup = Math.ceil(pageCount / 20);
  for (let n = 0; n < pageCount; n++) {
    const group = Math.floor(n / perGroup);
    if (n % perGroup === 0) summary.push('', `## Group ${group}`, '');
    const path = `group-${group}/page-${n}.md`;
    files[path] = `${page(n)}\n`;
    summary.push(`* [Page ${n}](${path})`);
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

async function openStorage(kind: string): Promise<{ database: Database; dispose: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = createDb({ kind: 'pglite' });
    return { database, dispose: () => database.close() };
  }
  return createScratchDatabase(opts['pg-url']!, { prefix: 'bench_git' });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (ms: number) => Math.round(ms);

async function run(kind: string) {
  const { database, dispose } = await openStorage(kind);
  const app = createApp({ db: database.db, logger: pino({ level: 'silent' }), publicUrl: 'http://bench.example' });
  const listening = app.listen(0, '127.0.0.1');
  const git = await startGitHttpServer({ stream: true });
  try {
    if (!listening.listening) await new Promise((resolve) => listening.once('listening', resolve));
    await database.migrate();
    const owner = await createUser(database.db, { email: 'owner@bench.example', displayName: 'Owner' });
    const organization = await createOrganization(database.db, { title: 'Bench', ownerId: owner.id });
    const token = await issueToken(database.db, owner.id, 'bench');
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/v1`;
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const runner = createJobRunner({ db: database.db, logger: pino({ level: 'silent' }), handlers: { [GIT_SYNC]: gitSyncHandler() } });
    /** Requests the operation, runs it, and checks its outcome; the time from the request to the outcome. */
    const operation = async (spaceId: string, direction: 'import' | 'export', body: object) => {
      const started = performance.now();
      await call('POST', `/spaces/${spaceId}/git/${direction}`, body);
      await runner.drain();
      const ms = performance.now() - started;
      const info = await call('GET', `/spaces/${spaceId}/git/info`);
      if (info.operation.state !== 'success' || info.operation.result !== 'applied') throw new Error(`${direction}: ${JSON.stringify(info.operation)}`);
      return ms;
    };

    const files = repositoryFiles();
    const imports: number[] = [];
    const exports: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const source = git.createRepository(`source-${r}`);
      git.commit(`source-${r}`, files, 'The bench docs');
      const space = await call('POST', `/orgs/${organization.id}/spaces`, { title: `Bench ${r}` });
      imports.push(await operation(space.id, 'import', { url: source, ref: 'refs/heads/main' }));
      const pages = await call('GET', `/spaces/${space.id}/content/pages`);
      const count = (list: { pages?: unknown[] }[]): number => list.reduce((n, p) => n + 1 + count((p.pages ?? []) as { pages?: unknown[] }[]), 0);
      if (count(pages.pages) < pageCount) throw new Error(`the import made ${count(pages.pages)} pages`);

      const target = git.createRepository(`target-${r}`);
      exports.push(await operation(space.id, 'export', { url: target, ref: 'refs/heads/main', commitMessage: 'Export', force: true }));
      const written = git.files(`target-${r}`, 'refs/heads/main').filter((p) => p.endsWith('.md')).length;
      if (written < pageCount) throw new Error(`the export wrote ${written} Markdown files`);
    }
    const result = {
      import: { medianMs: round(median(imports)), maxMs: round(Math.max(...imports)), runsMs: imports.map(round) },
      export: { medianMs: round(median(exports)), maxMs: round(Math.max(...exports)), runsMs: exports.map(round) },
    };
    console.log(kind, JSON.stringify(result));
    return result;
  } finally {
    listening.close();
    await git.close();
    await dispose();
  }
}

const MB = 1024 * 1024;
const ASSET_BYTES = 4_000_000;

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** The CPU time the process used so far, all its threads (user and system; Linux's clock ticks of 10 ms): on a loaded machine, what an operation cost whatever it waited for a core. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The pages with `megabytes` MB of random assets, one shown on each of the first pages. */
function largeRepositoryFiles(megabytes: number): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = repositoryFiles();
  const assets = Math.ceil((megabytes * 1_000_000) / ASSET_BYTES);
  const perGroup = Math.ceil(pageCount / 20);
  for (let n = 0; n < assets; n++) {
    files[`.gitbook/assets/shot-${n}.gif`] = randomBytes(ASSET_BYTES);
    const path = `group-${Math.floor(n / perGroup)}/page-${n}.md`;
    if (files[path]) files[path] = `${files[path]}\n![Screenshot ${n}](../.gitbook/assets/shot-${n}.gif)\n`;
  }
  return files;
}

async function runLarge(kind: string, megabytes: number) {
  const git = await startGitHttpServer({ stream: true });
  // `--tight-memory`: the settings docs/operating.md advises for a server with tight memory (a small young
  // generation, a bound on the old one, two malloc arenas); test/git-sync-memory.test.ts runs the server with the first and the last.
  const tight = opts['tight-memory'] ? { NODE_OPTIONS: '--max-semi-space-size=4 --max-old-space-size=384', MALLOC_ARENA_MAX: '2' } : {};
  const serverFlags = opts['server-flags']!.split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...serverFlags, '--import', 'tsx', 'bench/git-sync-server.ts', kind, opts['pg-url']!], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...tight } });
  child.once('exit', (code, signal) => code !== 0 && console.error(`the bench server exited: ${code ?? signal}`));
  try {
    const first = await new Promise<string>((resolve, reject) => {
      // The server's line is its JSON; any other (a flag's output, as `--trace-gc`'s) goes to stderr.
      let found = false;
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!found && line.startsWith('{"base"')) {
          found = true;
          resolve(line);
        } else process.stderr.write(`${line}\n`);
      });
      child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
    });
    const { base, token, orgId } = JSON.parse(first) as { base: string; token: string; orgId: string };
    const call = async (method: string, url: string, body?: unknown, attempt = 0): Promise<any> => {
      let res;
      try {
        res = await fetch(base + url, {
          method,
          headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
      } catch (err) {
        // The server parses pages synchronously for seconds at a time and then closes the poll's idle
        // keep-alive connection as the next GET goes out on it: that read is made again.
        if (method !== 'GET' || attempt >= 5) throw err;
        return call(method, url, body, attempt + 1);
      }
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const pid = child.pid!;
    /** Requests the operation and polls its outcome; its time, the server's RSS as it began and its peak meanwhile. */
    const operation = async (spaceId: string, direction: 'import' | 'export', body: object) => {
      const start = rssOf(pid);
      let peak = start;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
      const started = performance.now();
      const cpuBefore = cpuMsOf(pid);
      try {
        await call('POST', `/spaces/${spaceId}/git/${direction}`, body);
        for (;;) {
          const info = await call('GET', `/spaces/${spaceId}/git/info`);
          if (info.operation?.state === 'failure') throw new Error(`${direction}: ${JSON.stringify(info.operation)}`);
          if (info.operation?.state === 'success') {
            if (info.operation.result !== 'applied') throw new Error(`${direction}: ${JSON.stringify(info.operation)}`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return { ms: Math.round(performance.now() - started), cpuMs: cpuMsOf(pid) - cpuBefore, start, peak };
      } finally {
        clearInterval(sampler);
      }
    };
    // Made first: the commit blocks this process's event loop, which would let the server close idle connections under it.
    git.createRepository('large', { store: true });
    const files = largeRepositoryFiles(megabytes);
    const assetBytes = Object.entries(files).reduce((n, [path, f]) => n + (path.startsWith('.gitbook/assets/') ? f.length : 0), 0);
    git.commit('large', files, 'The large bench docs');
    // Warm: a small repository imported and exported, so the idle size includes every path's code.
    git.createRepository('warm', { store: true });
    git.commit('warm', { 'README.md': '# Warm\n\n![A](.gitbook/assets/a.gif)\n', '.gitbook/assets/a.gif': randomBytes(10_000) }, 'Warm');
    const warm = await call('POST', `/orgs/${orgId}/spaces`, { title: 'Warm' });
    await operation(warm.id, 'import', { url: `${git.base}/warm.git`, ref: 'refs/heads/main' });
    git.createRepository('warm-target', { store: true });
    await operation(warm.id, 'export', { url: `${git.base}/warm-target.git`, ref: 'refs/heads/main', commitMessage: 'Warm', force: true });

    const space = await call('POST', `/orgs/${orgId}/spaces`, { title: 'Large' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = rssOf(pid);
    console.log(kind, 'large: importing');
    const imported = await operation(space.id, 'import', { url: `${git.base}/large.git`, ref: 'refs/heads/main' });
    const listed = await call('GET', `/spaces/${space.id}/content/files?limit=1000`);
    if (listed.items.length * ASSET_BYTES !== assetBytes) throw new Error(`the import made ${listed.items.length} files`);
    git.createRepository('large-target', { store: true });
    console.log(kind, 'large: exporting');
    const exported = await operation(space.id, 'export', { url: `${git.base}/large-target.git`, ref: 'refs/heads/main', commitMessage: 'Export', force: true });
    const written = git.files('large-target', 'refs/heads/main');
    if (written.filter((p) => p.startsWith('.gitbook/assets/')).length !== listed.items.length || written.filter((p) => p.endsWith('.md')).length < pageCount) throw new Error('the export wrote too few files');
    // The growth over the idle size is the figure; over the operation's start too, as the export begins with what the import left (its garbage, until V8 collects it).
    const figure = (op: { ms: number; cpuMs: number; start: number; peak: number }) => ({
      ms: op.ms,
      msPerPage: Math.round((op.ms / pageCount) * 100) / 100,
      serverCpuMs: op.cpuMs,
      rssGrowthMB: Math.round((op.peak - idle) / MB),
      rssGrowthOverStartMB: Math.round((op.peak - op.start) / MB),
      peakRssMB: Math.round(op.peak / MB),
    });
    const result = { pages: pageCount, assetBytes, tightMemory: opts['tight-memory'], idleRssMB: Math.round(idle / MB), import: figure(imported), export: figure(exported) };
    console.log(kind, 'large', JSON.stringify(result));
    return result;
  } finally {
    child.stdin!.end();
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    await git.close();
  }
}

async function main() {
  // The machine is shared: the load beside the figures says how far they are from a quiet machine's.
  const load = () => loadavg().map((l) => Math.round(l * 100) / 100);
  const results: Record<string, unknown> = { date: new Date().toISOString(), pages: pageCount, rounds, node: process.version, cores: cpus().length, loadAverageAtStart: load() };
  if (rounds > 0) for (const kind of storages) results[kind] = await run(kind);
  const largeMb = Number(opts['large-mb']);
  if (largeMb > 0) {
    results.large = {};
    for (const kind of storages) (results.large as Record<string, unknown>)[kind] = await runLarge(kind, largeMb);
  }
  results.loadAverageAtEnd = load();
  writeFileSync(new URL('./results/git-sync.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
