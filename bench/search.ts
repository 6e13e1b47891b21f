// Search over a space of 10,000 generated pages, on PGlite and on PostgreSQL: p50/p95 per query with
// 8 concurrent clients (target: p95 ≤ 50 ms), the cost of the first search (which builds the index),
// one `updateChangeRequestContent` request carrying 50 changes, and the first search after merging it
// (which indexes only the changed pages again).
//
//   npx tsx bench/search.ts [--storage pglite|postgres|both] [--pages 10000] [--requests 25] [--clients 8]
//
// The pages (Markdown with headings, paragraphs, lists and code, words drawn with a Zipf-like skew from a
// fixed vocabulary, seeded PRNG) are written as one revision row; requests go over HTTP to a real
// listening server in this process (PGlite on a thread of its own, as the server runs it). The clients
// run on the server's thread: in a process of their own (2026-11-23), or a worker thread (11-22), they
// took the second core from the server at the wrong moments (then PGlite ran on the server's thread),
// and PGlite's p95 grew (59-100 ms against 42-56 ms) while its p50 fell. With `--storage both`, each
// storage is measured in a child process of its own.
// Results: bench/results/search.json.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { createApp } from '../server/app.js';
import { createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import { keyAfter } from '../server/content/order-keys.js';
import type { RevisionContent, StoredPage } from '../server/content/revision-content.js';
import { createDb, type Database } from '../server/db/client.js';
import { createScratchDatabase } from '../server/db/scratch-database.js';
import { contentRevisions, spaces } from '../server/db/schema/index.js';
import { timedCaller } from './support/timed-call.js';
import { prng } from './support/prng.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    pages: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '25' },
    // A search box's first page of results; the API's default is 100.
    limit: { type: 'string', default: '20' },
    clients: { type: 'string', default: '8' },
    // Print the timing of each part of the search query once (EXPLAIN ANALYZE), then stop.
    explain: { type: 'boolean', default: false },
    // Run only the query rows whose name contains this text (e.g. --only "no match"), for profiling.
    only: { type: 'string', default: '' },
    // Internal: where a child process measuring one storage of `--storage both` writes its results.
    'result-file': { type: 'string' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const pageCount = Number(opts.pages);
const requestsPerClient = Number(opts.requests);
const clients = Number(opts.clients);
const storages = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage!];

const stopwords = 'the a to of and in is for with on that by this be you it from as are your can or an when use each'.split(' ');
// Real words first (the most frequent ranks), then 20,000 generated ones, so the vocabulary has a long
// tail like a real documentation set: a query may match nearly every page or a handful.
const technical = (
  'configure install deploy server client token access request response error page space user team member ' +
  'organization setting option value file folder project build release version update upgrade migrate ' +
  'database query index table column schema record field key secret password account login session cookie ' +
  'network proxy domain certificate webhook event trigger job queue worker schedule retry timeout limit ' +
  'cache memory storage backup restore export import sync merge branch commit review approve reject comment ' +
  'document section heading link image embed list format markdown editor preview publish site theme ' +
  'search filter sort paginate cursor offset count total result match rank score weight relevance ' +
  'monitor metric alert log trace span latency throughput capacity scale replica shard partition cluster ' +
  'container registry pipeline stage artifact runner agent plugin extension integration adapter ' +
  'permission role policy grant revoke audit compliance encryption signature checksum hash digest ' +
  'invoice billing plan subscription payment refund customer support ticket feedback survey analytics ' +
  'onboarding tutorial guide reference concept overview quickstart troubleshooting faq glossary changelog'
).split(' ');
const syllables = 'ka lo mi ne ru sa te vi zo ba de fi gu ho ja ke lu ma no pe qui ra si tu ve wa xo ya ze'.split(' ');
const generated = (() => {
  const rand = prng(99);
  const words = new Set<string>();
  while (words.size < 20_000) words.add(Array.from({ length: 2 + Math.floor(rand() * 3) }, () => syllables[Math.floor(rand() * syllables.length)]).join(''));
  return [...words];
})();
const lexicon = [...technical, ...generated];

function word(rand: () => number): string {
  if (rand() < 0.35) return stopwords[Math.floor(rand() * stopwords.length)];
  // Zipf's law: the word of rank r is drawn with a probability proportional to 1/r.
  return lexicon[Math.min(lexicon.length, Math.floor(Math.exp(rand() * Math.log(lexicon.length + 1)))) - 1];
}
const sentence = (rand: () => number, n: number) => {
  const words = Array.from({ length: n }, () => word(rand));
  return `${words[0][0].toUpperCase()}${words[0].slice(1)} ${words.slice(1).join(' ')}.`;
};
const title = (rand: () => number) => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => lexicon[Math.floor(rand() * 2000)]).join(' ');

function markdownOf(rand: () => number, pageTitle: string): string {
  const parts = [`# ${pageTitle}`, Array.from({ length: 2 + Math.floor(rand() * 3) }, () => sentence(rand, 8 + Math.floor(rand() * 12))).join(' ')];
  const sections = 1 + Math.floor(rand() * 4);
  for (let s = 0; s < sections; s++) {
    parts.push(`## ${title(rand)}`);
    parts.push(Array.from({ length: 3 + Math.floor(rand() * 4) }, () => sentence(rand, 8 + Math.floor(rand() * 14))).join(' '));
    if (rand() < 0.4) parts.push(Array.from({ length: 3 }, () => `- ${sentence(rand, 5)}`).join('\n'));
    if (rand() < 0.2) parts.push('```sh\n' + `example-cli ${word(rand)} --${word(rand)}\n` + '```');
  }
  return parts.join('\n\n');
}

/** 10,000 pages: 100 top-level pages with 99 children each, as one revision of a new space. */
function generatedContent(count: number): RevisionContent {
  const rand = prng(20260314);
  const now = new Date().toISOString();
  const pages: StoredPage[] = [];
  let lastTop: string | undefined;
  const lastChild = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const top = i % 100 === 0;
    const parent = top ? null : pages[i - (i % 100)].id;
    const t = `${title(rand)} ${i}`;
    const position = keyAfter(top ? lastTop : lastChild.get(parent!));
    if (top) lastTop = position;
    else lastChild.set(parent!, position);
    pages.push({
      id: `pag_bench${String(i).padStart(6, '0')}`,
      parent,
      position,
      type: 'document',
      title: t,
      slug: t.replace(/ /g, '-'),
      markdown: markdownOf(rand, t),
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      createdAt: now,
      updatedAt: now,
    });
  }
  return { pages, files: [], variables: {}, reusableContents: [] };
}

async function openStorage(kind: string): Promise<{ database: Database; dispose: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = createDb({ kind: 'pglite' });
    return { database, dispose: () => database.close() };
  }
  return createScratchDatabase(opts['pg-url']!, { prefix: 'bench_search' });
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round = (ms: number) => Math.round(ms * 10) / 10;

// From words on nearly every page to words on a handful (the ranks of the Zipf draw above). Each row
// cycles through 8 different queries of the same kind, so no request repeats the one before it (the
// server keeps no result cache, and the database's own caches see varied lexemes).
const around = (rank: number) => Array.from({ length: 8 }, (_, i) => lexicon[rank - 1 + i]);
const queries: Record<string, string[]> = {
  'words of rank 1-8 (on ~all pages)': around(1),
  'words of rank 60-67': around(60),
  'words of rank 1000-1007': around(1000),
  'words of rank 10000-10007': around(10_000),
  'two words': around(60).map((w, i) => `${w} ${lexicon[200 + i]}`),
  'quoted phrase': around(4).map((w, i) => `"${w} ${lexicon[8 + i]}"`),
  'word minus word': around(300).map((w, i) => `${w} -${lexicon[i]}`),
  'no match': ['xylophone', 'zeppelin', 'quasar', 'marmalade', 'walrus', 'kumquat', 'bassoon', 'nebula'],
};

async function run(kind: string) {
  const { database, dispose } = await openStorage(kind);
  const server = { close: () => undefined as unknown } as { close: () => unknown };
  try {
    await database.migrate();
    const owner = await createUser(database.db, { email: 'owner@bench.example', displayName: 'Owner' });
    const organization = await createOrganization(database.db, { title: 'Bench', ownerId: owner.id });
    const token = await issueToken(database.db, owner.id, 'bench');
    const app = createApp({ db: database.db, logger: pino({ level: 'silent' }), publicUrl: 'http://bench.example' });
    const listening = app.listen(0, '127.0.0.1');
    // Searches can take seconds while the index is built: keep idle sockets open longer than that.
    listening.keepAliveTimeout = 120_000;
    server.close = () => listening.close();
    await new Promise((resolve) => listening.once('listening', resolve));
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/v1`;
    const call = timedCaller(base, token);

    const space = (await call('POST', `/orgs/${organization.id}/spaces`, { title: 'Bench' })).body;
    let started = performance.now();
    const content = generatedContent(pageCount);
    const revisionId = 'rev_bench_seed';
    await database.db.insert(contentRevisions).values({ id: revisionId, spaceId: space.id, parents: [], type: 'edits', content, createdAt: new Date() });
    await database.db.update(spaces).set({ revisionId }).where(eq(spaces.id, space.id));
    const seedMs = performance.now() - started;
    const bytes = Buffer.byteLength(JSON.stringify(content));
    console.log(`${kind}: seeded ${pageCount} pages (${(bytes / 1e6).toFixed(1)} MB of content) in ${Math.round(seedMs)} ms`);

    const searchUrl = (q: string) => `/spaces/${space.id}/search?limit=${opts.limit}&query=${encodeURIComponent(q)}`;
    const firstSearch = await call('GET', searchUrl(lexicon[59]));
    console.log(`${kind}: first search (builds the index) ${Math.round(firstSearch.ms)} ms`);
    // The build wrote ~100 MB: flush it now, as a database would in the background after such an import,
    // rather than in the middle of the first row measured.
    await database.db.execute('CHECKPOINT' as never);

    if (opts.explain) {
      // The parts of the search function (migration 0022), with the planner steered as it steers it: a
      // word ranked by full text (at most 200 pages), the same without the ranking, a common word walked in
      // id order, a phrase through its word pairs, and the rows of a page of 20 results with their sections.
      const explain = async (text: string) => {
        const res = (await database.db.execute(`EXPLAIN (ANALYZE, COSTS OFF) ${text}` as never)) as unknown as { rows: Record<string, string>[] };
        console.log(res.rows.map((r) => Object.values(r)[0]).join('\n'));
      };
      await database.db.execute('SET enable_seqscan = off' as never);
      const sizes = `SELECT relname, pg_total_relation_size(oid) AS bytes FROM pg_class WHERE relname IN ('search_pages', 'search_sections', 'search_page_pairs', 'search_terms')`;
      console.log(((await database.db.execute(sizes as never)) as unknown as { rows: unknown[] }).rows);
      const q = (text: string) => `websearch_to_tsquery('english', '${text.replace(/'/g, "''")}')`;
      const inSpace = `p.space_id = '${space.id}'`;
      for (const word of queries['words of rank 1000-1007'].slice(0, 2)) {
        console.log(`--- ${word}: ranked by full text, then not ranked`);
        await explain(`SELECT p.page_id, ts_rank(p.tsv, ${q(word)}) AS rank FROM search_pages p WHERE ${inSpace} AND p.tsv @@ ${q(word)} ORDER BY rank DESC, p.page_id LIMIT 20`);
        await explain(`SELECT p.page_id FROM search_pages p WHERE ${inSpace} AND p.tsv @@ ${q(word)} ORDER BY p.page_id LIMIT 20`);
      }
      console.log(`--- ${lexicon[0]}: titles, then the others in id order`);
      await explain(`SELECT p.page_id, ts_rank(p.title_tsv, ${q(lexicon[0])}) AS rank FROM search_pages p WHERE ${inSpace} AND p.title_tsv @@ ${q(lexicon[0])} ORDER BY rank DESC, p.page_id LIMIT 20`);
      await explain(`SELECT p.page_id FROM search_pages p WHERE ${inSpace} AND (p.tsv @@ ${q(lexicon[0])}) IS TRUE AND (p.title_tsv @@ ${q(lexicon[0])}) IS NOT TRUE ORDER BY p.page_id LIMIT 20`);
      const phrase = queries['quoted phrase'][0];
      console.log(`--- ${phrase}: through its word pairs`);
      await explain(
        `SELECT count(*) FROM search_page_pairs pp JOIN search_pages p ON ${inSpace} AND p.page_id = pp.page_id ` +
          `WHERE pp.pairs @> search_query_pairs(${q(phrase)}) AND (pp.space_id = '${space.id}') IS TRUE AND (p.tsv @@ ${q(phrase)}) IS TRUE`,
      );
      // The whole function from this process: executed and read back, then executed and counted only.
      for (const text of [lexicon[0], queries['words of rank 1000-1007'][0], queries['quoted phrase'][0], queries['two words'][0]]) {
        const call = `search_content('${text.replace(/'/g, "''")}', '${space.id}', NULL, 0, ${opts.limit}, 200, NULL)`;
        for (const form of [`SELECT * FROM ${call}`, `SELECT count(*) FROM ${call}`]) {
          const times: number[] = [];
          for (let i = 0; i < 30; i++) {
            const started = performance.now();
            await database.db.execute(form as never);
            times.push(performance.now() - started);
          }
          console.log(`--- ${form.slice(0, 16)}… ${text}: median ${round(percentile(times, 50))} ms`);
        }
      }
      console.log(`--- ${lexicon[0]}: the rows of 20 results`);
      await explain(
        `SELECT p.page_id, s.body FROM (SELECT p.page_id FROM search_pages p WHERE ${inSpace} ORDER BY p.page_id LIMIT 20) AS c ` +
          `JOIN search_pages p ON ${inSpace} AND p.page_id = c.page_id ` +
          `LEFT JOIN search_sections s ON s.space_id = p.space_id AND s.page_id = c.page_id AND (s.tsv @@ ${q(lexicon[0])}) IS TRUE`,
      );
      return {};
    }
    // The server's warm-up: every query of every row 10 times, 8 at a time, before any row is measured.
    // Whichever row came first was measured slower: "no match" had a p95 of 18-27 ms measured first, with
    // this warm-up 15-19 ms, against 8-14 ms measured last (after ~1,750 searches).
    const everyQuery = Object.values(queries).flat();
    for (let i = 0; i < everyQuery.length * 10; i += clients) {
      await Promise.all(Array.from({ length: clients }, (_, c) => call('GET', searchUrl(everyQuery[(i + c) % everyQuery.length]))));
    }
    const perQuery: Record<string, unknown> = {};
    for (const [name, qs] of Object.entries(queries)) {
      if (!name.includes(opts.only!)) continue;
      // Warm-up: 5 rounds of the clients. With one round, PGlite stalled once or twice for 50-150 ms early in
      // the first rows after the index build, which put 8-16 of the 200 timed requests of the row above
      // 70 ms. (Such stalls still come later, with V8's major collections: see results/search.md.)
      let next = 0;
      const q = () => qs[next++ % qs.length];
      for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: clients }, () => call('GET', searchUrl(q()))));
      // The cost of one search on its own, then under 8 concurrent clients.
      const alone: number[] = [];
      for (let i = 0; i < 10; i++) alone.push((await call('GET', searchUrl(q()))).ms);
      const times: number[] = [];
      const counts = new Map<string, number>();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          for (let i = 0; i < requestsPerClient; i++) {
            const text = q();
            const r = await call('GET', searchUrl(text));
            times.push(r.ms);
            counts.set(text, r.body.count);
          }
        }),
      );
      const matching = [...counts.values()];
      perQuery[name] = { queries: qs, matchingPages: [Math.min(...matching), Math.max(...matching)], oneClientP50: round(percentile(alone, 50)), requests: times.length, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(Math.max(...times)) };
      console.log(`${kind}: ${name.padEnd(20)} ${JSON.stringify(perQuery[name])}`);
    }

    // One request carrying 50 changes (25 page updates, 25 new pages) into a change request of the big space.
    const cr = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Batch' })).body;
    const rand = prng(7);
    const changes = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? { operation: 'update_page', page: content.pages[(i * 97) % content.pages.length].id, document: { markdown: markdownOf(rand, `Updated ${i}`) } }
        : { operation: 'insert_page', title: `New page ${i}`, document: { markdown: markdownOf(rand, `New page ${i}`) } },
    );
    const batch = await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
    console.log(`${kind}: updateChangeRequestContent, 50 changes: ${Math.round(batch.ms)} ms`);
    const merge = await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
    started = performance.now();
    const afterMerge = await call('GET', searchUrl(lexicon[59]));
    console.log(`${kind}: merge ${Math.round(merge.ms)} ms; first search after it (re-indexes the changed pages) ${Math.round(afterMerge.ms)} ms`);
    const warm = await call('GET', searchUrl(lexicon[59]));

    return {
      pages: pageCount,
      contentMB: round(bytes / 1e6),
      clients,
      limit: Number(opts.limit),
      seedMs: Math.round(seedMs),
      firstSearchBuildingIndexMs: Math.round(firstSearch.ms),
      queries: perQuery,
      updateChangeRequestContent50ChangesMs: Math.round(batch.ms),
      mergeMs: Math.round(merge.ms),
      firstSearchAfterMergeMs: Math.round(afterMerge.ms),
      nextSearchMs: round(warm.ms),
    };
  } finally {
    server.close();
    await dispose();
  }
}

/**
 * Each storage is measured in a process of its own: measured after PGlite in the same process, PostgreSQL's
 * first row had a p95 of 57-63 ms in four runs out of four (the process still freeing PGlite's few hundred
 * MB), against 28-43 ms in six runs on its own.
 */
function runInChild(kind: string): unknown {
  const resultFile = path.join(tmpdir(), `search-bench-${process.pid}-${kind}.json`);
  const args = process.argv.slice(2).flatMap((arg, i, all) => (arg === '--storage' ? [] : all[i - 1] === '--storage' || arg.startsWith('--storage=') ? [] : [arg]));
  execFileSync(process.execPath, [...process.execArgv, process.argv[1], ...args, '--storage', kind, '--result-file', resultFile], { stdio: 'inherit' });
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as unknown;
  rmSync(resultFile);
  return result;
}

async function main() {
  if (opts['result-file']) {
    writeFileSync(opts['result-file'], JSON.stringify(await run(storages[0])));
    return;
  }
  // Other work on the machine inflates latencies: the load average is recorded beside them.
  const results: Record<string, unknown> = { date: new Date().toISOString(), cpus: 2, loadAverageBefore: loadavg()[0], storages: {} };
  for (const kind of storages) (results.storages as Record<string, unknown>)[kind] = storages.length > 1 ? runInChild(kind) : await run(kind);
  if (opts.explain) return;
  results.loadAverageAfter = loadavg()[0];
  const out = path.join(import.meta.dirname, 'results', 'search.json');
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${out}`);
}

await main();
