// Git Sync end to end on a repository of 1,000 pages (20 groups of 50 in SUMMARY.md, each page a heading,
// paragraphs, a list, a code block and a table), served over smart HTTP by `git http-backend` on loopback
// (test/support/git-http-server.ts). Measured, from the request to the outcome recorded on the space:
//   import: importGitRepository into an empty space (fetch, read the format, write one revision);
//   export: exportToGitRepository of that space into an empty repository (write the format, commit, push).
//
//   npx tsx bench/git-sync.ts [--storage pglite|postgres|both] [--pages 1000] [--rounds 3]
//
// Results: bench/results/git-sync.json (the median and the worst of the rounds, each on a fresh space and repository).
import { writeFileSync } from 'node:fs';
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
  const git = await startGitHttpServer();
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

async function main() {
  // The machine is shared: the load beside the figures says how far they are from a quiet machine's.
  const load = () => loadavg().map((l) => Math.round(l * 100) / 100);
  const results: Record<string, unknown> = { date: new Date().toISOString(), pages: pageCount, rounds, node: process.version, cores: cpus().length, loadAverageAtStart: load() };
  for (const kind of storages) results[kind] = await run(kind);
  results.loadAverageAtEnd = load();
  writeFileSync(new URL('./results/git-sync.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
