// A workspace of real size against a small one: p50/p95 of the list, read, search and published-page
// operations in a workspace of 100 pages (1 space) and in one of 1,000 spaces with 100,000 pages, 10,000
// members, 1,000 teams with grants on spaces and collections, 50,000 comments and 10,000 change requests
// (bench/scale-seed.ts), in one run, on PGlite and on PostgreSQL. The space, page and team read are the
// same size in both workspaces: only the workspace around them grows, so a ratio above 1 is the cost of
// the workspace's size. The target (issue 52): no operation more than 2x slower at 100,000 pages.
//
//   npx tsx bench/scale.ts [--storage pglite|postgres|both] [--scale 1] [--requests 40] [--only TEXT]
//                          [--pg-url postgres://postgres@127.0.0.1:5432/test] [--out scale.json]
//
// A list's first page at its default size (100) holds every row of the small workspace (1 space, 10 members,
// 1 team) but 100 rows of the large one, so its ratio adds the cost of more rows to the cost of a larger
// workspace. Each list is therefore measured twice: at its default size, and as "<list>, same page": with
// `limit` set to the number of rows the small workspace's default page holds, in both workspaces, so that
// only the workspace around the page grows. Both are recorded; the first is what a client asking for the
// default gets, the second the workspace's own cost.
//
// --scale 0.01 builds 10 spaces (1,000 pages), 100 members, 10 teams: a quick check. Each workspace is
// seeded in this process (SQL batches; pages and the search index written by the server's own code), then
// measured over HTTP against the project's server (server/main.ts) in its own process, one per workspace,
// both running: the requests of the operations taken in turn (one at a time), each on the small workspace then
// on the large one, so that both meet the same load, after 5 rounds of warm-up. Results: bench/results/<out>.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type Database } from '../server/db/client.js';
import { createScratchDatabase } from '../server/db/scratch-database.js';
import { benchRun } from './support/bench-run.js';
import { round2 } from './support/measures.js';
import { PAGES_PER_SPACE, seedWorkspace, sizeAt, type Workspace, type WorkspaceSize } from './scale-seed.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    scale: { type: 'string', default: '1' },
    requests: { type: 'string', default: '40' },
    // Only the operations whose name contains this text.
    only: { type: 'string', default: '' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    out: { type: 'string', default: 'scale.json' },
  },
});
const scale = Number(opts.scale);
const requests = Number(opts.requests);
const storages = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage!];
if (!(scale > 0 && requests > 0) || !storages.every((s) => s === 'pglite' || s === 'postgres')) throw new Error('--scale and --requests must be positive, --storage pglite|postgres|both');

const { tmp, cleanups, cleanUp, startServer } = benchRun('scale', storages.length * (120 + 900 * scale) * 1000 + 300_000, {});

interface Target {
  url: string;
  /** The guest's token rather than the admin's. */
  guest?: boolean;
}

/** The operations, each one request (a list's first page, at its default size). */
function operations(w: Workspace, sitePagePath: string): Record<string, Target> {
  const org = `/v1/orgs/${w.organizationId}`;
  const space = `/v1/spaces/${w.spaceId}`;
  return {
    'list spaces': { url: `${org}/spaces` },
    'list spaces (guest, through grants)': { url: `${org}/spaces`, guest: true },
    'list collections': { url: `${org}/collections` },
    'list members': { url: `${org}/members` },
    'list teams': { url: `${org}/teams` },
    'list team members': { url: `${org}/teams/${w.teamId}/members` },
    "list a member's spaces": { url: `${org}/members/${w.guestId}/spaces` },
    'list space user permissions': { url: `${space}/permissions/users` },
    'list space team permissions': { url: `${space}/permissions/teams` },
    'list pages': { url: `${space}/content/pages` },
    'list comments': { url: `${space}/comments` },
    'list change requests (space)': { url: `${space}/change-requests` },
    'list change requests (organization)': { url: `${org}/change-requests` },
    'read space': { url: space },
    'read space (guest)': { url: space, guest: true },
    'read page by path': { url: `${space}/content/path/topic-11` },
    'read page document': { url: `${space}/content/page/${w.pageId}` },
    'search space': { url: `${space}/search?query=deploy%20token` },
    'search organization': { url: `${org}/search?query=deploy%20token` },
    'search organization, rare word': { url: `${org}/search?query=word1` },
    'published page': { url: sitePagePath },
  };
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function openStorage(kind: string, name: string): Promise<{ database: Database; env: Record<string, string>; dispose: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dataDir = path.join(tmp, name);
    const database = createDb({ kind: 'pglite', dataDir, thread: false });
    return { database, env: { DATA_DIR: dataDir }, dispose: () => database.close() };
  }
  const scratch = await createScratchDatabase(opts['pg-url']!, { prefix: 'bench_scale' });
  cleanups.push(() => scratch.dispose());
  // Its pool stays open until the run's clean-up drops the database.
  return { database: scratch.database, env: { DATABASE_URL: scratch.url }, dispose: async () => {} };
}

/** A list's URL with its page size set (`limit`), for the "same page" measures. */
function withLimit(url: string, limit: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}limit=${limit}`;
}

/** A workspace seeded and served: its server's requests, and the operations measured on it. */
interface Served {
  size: WorkspaceSize & { pages: number };
  seedSeconds: Record<string, number>;
  workspace: Workspace;
  ops: Map<string, Target>;
  send: (url: string, token: string | undefined, method?: string, body?: unknown) => Promise<{ ms: number; text: string }>;
  stop: () => Promise<void>;
}

/** Seeds a workspace of `size` and starts the project's server on it, with a public site published over the space read. */
async function serveWorkspace(kind: string, name: string, size: WorkspaceSize): Promise<Served> {
  console.log(`${kind} ${name}: ${size.spaces} spaces, ${size.spaces * PAGES_PER_SPACE} pages, ${size.members} members, ${size.teams} teams, ${size.spaces * size.comments} comments`);
  const { database, env, dispose } = await openStorage(kind, name);
  let workspace: Workspace;
  try {
    await database.migrate();
    workspace = await seedWorkspace(database, size, console.log);
  } finally {
    await dispose();
  }
  // Each read made anew (READ_CACHE=off): what grows with the workspace is the read's own statements, which a
  // held answer (server/http/read-cache.ts) would hide from the second request on.
  const server = await startServer(`${kind}-${name}`, 'server/main.ts', { ...env, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000000', READ_CACHE: 'off' });
  const send = async (url: string, token: string | undefined, method = 'GET', body?: unknown) => {
    const started = performance.now();
    const res = await fetch(server.url + url, {
      method,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
    return { ms: performance.now() - started, text };
  };
  const site = JSON.parse((await send(`/v1/orgs/${workspace.organizationId}/sites`, workspace.token, 'POST', { title: 'Docs', spaces: [workspace.spaceId] })).text);
  const published = JSON.parse((await send(`/v1/orgs/${workspace.organizationId}/sites/${site.id}/publish`, workspace.token, 'POST')).text);
  const ops = new Map(Object.entries(operations(workspace, `${new URL(published.urls.published).pathname}/topic-11`)).filter(([n]) => n.includes(opts.only!)));
  return { size: { ...size, pages: size.spaces * PAGES_PER_SPACE }, seedSeconds: workspace.timings, workspace, ops, send, stop: () => server.stop() };
}

/** The token of an operation's requests: none for the published page (a reader's), the guest's or the admin's. */
const tokenOf = (w: Workspace, n: string, target: Target) => (n === 'published page' ? undefined : target.guest ? w.guestToken : w.token);

/**
 * The lists' same-page measures, added to both workspaces' operations: each list (of the envelope
 * `{ items, next, count }`; the pages' tree is not paged) with `limit` the number of rows of the small
 * workspace's default page, read here.
 */
async function addSamePage(small: Served, big: Served): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const [n, target] of [...small.ops].filter(([n]) => n.startsWith('list '))) {
    const items = (JSON.parse((await small.send(target.url, tokenOf(small.workspace, n, target))).text) as { items?: unknown[] }).items;
    if (!items?.length) continue;
    rows[n] = items.length;
    for (const served of [small, big]) {
      const own = served.ops.get(n)!;
      served.ops.set(`${n}, same page`, { ...own, url: withLimit(own.url, items.length) });
    }
  }
  return rows;
}

/**
 * p50 and p95 of every operation on both workspaces, their requests alternating (each operation on the small
 * workspace, then on the large one, in turn), so that both meet the same load on the machine: measured one
 * after the other, a change of load between them moved the ratios more than the workspace did.
 */
async function measureSideBySide(small: Served, big: Served) {
  const times = new Map([...small.ops.keys()].map((n) => [n, { small: [] as number[], big: [] as number[] }]));
  for (let round = 0; round < 5 + requests; round++) {
    for (const [n, t] of times) {
      for (const [served, into] of [[small, t.small], [big, t.big]] as const) {
        const target = served.ops.get(n)!;
        const { ms } = await served.send(target.url, tokenOf(served.workspace, n, target));
        if (round >= 5) into.push(ms);
      }
    }
  }
  const stats = (ms: number[]) => ({ p50: round2(percentile(ms, 50)), p95: round2(percentile(ms, 95)) });
  return new Map([...times].map(([n, t]) => [n, { small: stats(t.small), big: stats(t.big) }]));
}

const loadBefore = round2(os.loadavg()[0]);
const startedAt = Date.now();
const out: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length, loadAverageBefore: loadBefore, scale, requests, storages: {} };
try {
  for (const kind of storages) {
    const small = await serveWorkspace(kind, 'small', sizeAt(0.001));
    let big: Served | undefined;
    try {
      big = await serveWorkspace(kind, 'big', sizeAt(scale));
      const rows = await addSamePage(small, big);
      const table: Record<string, unknown> = {};
      for (const [n, { small: s, big: b }] of await measureSideBySide(small, big)) {
        const pageRows = n.endsWith(', same page') ? rows[n.slice(0, -', same page'.length)] : undefined;
        table[n] = { small: s, big: b, ratioP50: round2(b.p50 / s.p50), ratioP95: round2(b.p95 / s.p95), ...(pageRows !== undefined && { limit: pageRows }) };
        console.log(`${kind.padEnd(8)} ${n.padEnd(38)} p50 ${s.p50} -> ${b.p50} ms (x${round2(b.p50 / s.p50)}), p95 ${s.p95} -> ${b.p95} ms (x${round2(b.p95 / s.p95)})`);
      }
      (out.storages as Record<string, unknown>)[kind] = { small: { size: small.size, seedSeconds: small.seedSeconds }, big: { size: big.size, seedSeconds: big.seedSeconds }, operations: table };
    } finally {
      await Promise.all([small.stop(), big?.stop()]);
    }
  }
  out.loadAverageAfter = round2(os.loadavg()[0]);
  out.minutes = round2((Date.now() - startedAt) / 60_000);
  const file = path.resolve(import.meta.dirname, 'results', opts.out!);
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`written to ${file} (load average ${loadBefore} -> ${out.loadAverageAfter}, ${out.minutes} min)`);
} finally {
  await cleanUp();
}
process.exit(0);
