// Content writes and page merges on a space of 200 pages, on PGlite and on PostgreSQL, over HTTP to a real
// listening server in this process: one `updateChangeRequestContent` of 50 changes (each page rewritten, so
// each is parsed and its block keys aligned), then a merge that must merge those 50 pages block by block
// (the space moved on meanwhile: another change request edited other blocks of the same pages).
//
// Then, on one space per size (200 and --large-pages 5,000 pages), a merge touching one page (changed on both
// sides, merged by block) — its cost should follow the change, not the space — the reads of one 500-block
// page of the large space, in the `document` and `markdown` formats, and a merge of two writers who edited
// different cells of one 200-row table on that space.
//
//   npx tsx bench/content-merge.ts [--storage pglite|postgres|both] [--pages 200] [--changes 50] [--rounds 5]
//                                  [--large-pages 5000] [--merge-rounds 15] [--reads 5] [--profile DIR]
//
// Results: bench/results/content-merge.json (the median and the worst of the rounds, each on a fresh space).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../server/app.js';
import { createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import { createDb, type Database } from '../server/db/client.js';
import { createScratchDatabase } from '../server/db/scratch-database.js';
import { timedCaller } from './support/timed-call.js';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string', default: 'both' },
    pages: { type: 'string', default: '200' },
    changes: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    'large-pages': { type: 'string', default: '5000' },
    'merge-rounds': { type: 'string', default: '15' },
    reads: { type: 'string', default: '5' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    profile: { type: 'string' },
  },
});
const pageCount = Number(opts.pages);
const changeCount = Number(opts.changes);
const rounds = Number(opts.rounds);
const largePages = Number(opts['large-pages']);
const mergeRounds = Number(opts['merge-rounds']);
const reads = Number(opts.reads);
const storages = opts.storage === 'both' ? ['pglite', 'postgres'] : [opts.storage!];

/**
 * A page of a documentation set: a heading, paragraphs, a list, a code block; `edits` replace paragraphs by
 * number. Each round's pages differ (`round` is in their links), so no round reads the parses an earlier
 * round left in the server's parse cache.
 */
function pageMarkdown(round: number, n: number, edits: Record<number, string> = {}): string {
  const paragraph = (i: number) => edits[i] ?? `Paragraph ${i} of page ${n}: configure the **server**, set the \`token\` and read [the guide](https://docs.example.com/${round}/${n}/${i}).`;
  return [
    `# Page ${n}`,
    paragraph(0),
    paragraph(1),
    '- install the CLI\n- sign in\n- publish',
    paragraph(2),
    '```bash\nnpm install -g example-cli\nexample login\n```',
    paragraph(3),
    '| Option | Default |\n| --- | --- |\n| `timeout` | 30 s |',
    paragraph(4),
  ].join('\n\n');
}

async function openStorage(kind: string): Promise<{ database: Database; dispose: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = createDb({ kind: 'pglite' });
    return { database, dispose: () => database.close() };
  }
  return createScratchDatabase(opts['pg-url']!, { prefix: 'bench_merge' });
}

/** CPU profiles of this process, one per large one-page merge, written to --profile DIR as merge-<round>.cpuprofile. */
let profileSession: Session | undefined;
async function startProfile() {
  if (!profileSession) {
    profileSession = new Session();
    profileSession.connect();
    await profileSession.post('Profiler.enable');
    await profileSession.post('Profiler.setSamplingInterval', { interval: 50 });
  }
  const session = profileSession;
  await session.post('Profiler.start');
  return {
    stop: async (round: number) => {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(opts.profile!, { recursive: true });
      writeFileSync(path.join(opts.profile!, `merge-${round}.cpuprofile`), JSON.stringify(profile));
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** To a tenth of a millisecond: the one-page merges take a few, and whole milliseconds made their ratio jump. */
const round = (ms: number) => Math.round(ms * 10) / 10;

async function run(kind: string) {
  const { database, dispose } = await openStorage(kind);
  const app = createApp({ db: database.db, logger: pino({ level: 'silent' }), publicUrl: 'http://bench.example' });
  const listening = app.listen(0, '127.0.0.1');
  try {
    if (!listening.listening) await new Promise((resolve) => listening.once('listening', resolve));
    await database.migrate();
    const owner = await createUser(database.db, { email: 'owner@bench.example', displayName: 'Owner' });
    const organization = await createOrganization(database.db, { title: 'Bench', ownerId: owner.id });
    const token = await issueToken(database.db, owner.id, 'bench');
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/v1`;
    const call = timedCaller(base, token);
    const batch = (spaceId: string, crId: string, changes: unknown[]) => call('POST', `/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { changes });

    const update: number[] = [];
    const merge: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const space = (await call('POST', `/orgs/${organization.id}/spaces`, { title: `Bench ${r}` })).body;
      const seed = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Seed' })).body;
      const ids: string[] = [];
      for (let from = 0; from < pageCount; from += 50) {
        const changes = Array.from({ length: Math.min(50, pageCount - from) }, (_, i) => ({ operation: 'insert_page', title: `Page ${from + i}`, document: { markdown: pageMarkdown(r, from + i) } }));
        const done = await batch(space.id, seed.id, changes);
        ids.push(...done.body.changes.map((c: { page: { id: string } }) => c.page.id));
      }
      await call('POST', `/spaces/${space.id}/change-requests/${seed.id}/merge`);

      const ours = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Ours' })).body;
      const theirs = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Theirs' })).body;
      const edited = ids.slice(0, changeCount);
      await batch(space.id, theirs.id, edited.map((id, i) => ({ operation: 'update_page', page: id, document: { markdown: pageMarkdown(r, i, { 4: `Last paragraph of page ${i}, edited in the space.` }) } })));
      await call('POST', `/spaces/${space.id}/change-requests/${theirs.id}/merge`);
      // The measured batch: 50 pages rewritten, each keeping its other blocks' keys.
      const ourChanges = edited.map((id, i) => ({ operation: 'update_page', page: id, document: { markdown: pageMarkdown(r, i, { 1: `Second paragraph of page ${i}, edited in the change request.` }) } }));
      update.push((await batch(space.id, ours.id, ourChanges)).ms);
      // The measured merge: 200 pages, 50 of them changed on both sides, merged block by block.
      merge.push((await call('POST', `/spaces/${space.id}/change-requests/${ours.id}/merge`)).ms);
      const check = (await call('GET', `/spaces/${space.id}/content/page/${edited[0]}?format=markdown`)).body.markdown as string;
      if (!check.includes('edited in the space') || !check.includes('edited in the change request')) throw new Error('the merge lost an edit');
    }
    const stats = (xs: number[]) => ({ medianMs: round(median(xs)), maxMs: round(Math.max(...xs)), runsMs: xs.map(round) });

    // A merge touching one page, on a space of `size` pages: the space edits its last paragraph, the change
    // request its second (so the page is merged block by block); `merge-rounds` merges on the same space.
    const onePageMerge = async (size: number) => {
      const space = (await call('POST', `/orgs/${organization.id}/spaces`, { title: `Bench ${size}` })).body;
      const seed = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Seed' })).body;
      const ids: string[] = [];
      for (let from = 0; from < size; from += 50) {
        const changes = Array.from({ length: Math.min(50, size - from) }, (_, i) => ({ operation: 'insert_page', title: `Page ${from + i}`, document: { markdown: pageMarkdown(size, from + i) } }));
        ids.push(...(await batch(space.id, seed.id, changes)).body.changes.map((c: { page: { id: string } }) => c.page.id));
      }
      await call('POST', `/spaces/${space.id}/change-requests/${seed.id}/merge`);
      const times: number[] = [];
      for (let r = 0; r < mergeRounds; r++) {
        const ours = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Ours' })).body;
        const theirs = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Theirs' })).body;
        const id = ids[r];
        await batch(space.id, theirs.id, [{ operation: 'update_page', page: id, document: { markdown: pageMarkdown(size, r, { 4: `Last paragraph, edited in the space (${r}).` }) } }]);
        await call('POST', `/spaces/${space.id}/change-requests/${theirs.id}/merge`);
        await batch(space.id, ours.id, [{ operation: 'update_page', page: id, document: { markdown: pageMarkdown(size, r, { 1: `Second paragraph, edited in the change request (${r}).` }) } }]);
        const profiling = opts.profile && size === largePages ? await startProfile() : undefined;
        times.push((await call('POST', `/spaces/${space.id}/change-requests/${ours.id}/merge`)).ms);
        if (profiling) await profiling.stop(r);
        const check = (await call('GET', `/spaces/${space.id}/content/page/${id}?format=markdown`)).body.markdown as string;
        if (!check.includes('edited in the space') || !check.includes('edited in the change request')) throw new Error('the one-page merge lost an edit');
      }
      return { space, times };
    };
    const small = await onePageMerge(pageCount);
    const large = await onePageMerge(largePages);

    // One page of 500 blocks in the large space, read `reads` times in each format.
    const bigCr = (await call('POST', `/spaces/${large.space.id}/change-requests`, { subject: 'Big page' })).body;
    const bigMarkdown = Array.from({ length: 500 }, (_, i) => `Paragraph ${i} of the long page, with **bold** text and a [link](https://docs.example.com/long/${i}).`).join('\n\n');
    const big = (await batch(large.space.id, bigCr.id, [{ operation: 'insert_page', title: 'Long page', document: { markdown: bigMarkdown } }])).body.changes[0].page.id as string;
    await call('POST', `/spaces/${large.space.id}/change-requests/${bigCr.id}/merge`);
    const readTimes = async (format: string) => {
      const times: number[] = [];
      for (let i = 0; i < reads; i++) times.push((await call('GET', `/spaces/${large.space.id}/content/page/${big}?format=${format}`)).ms);
      return times;
    };
    const readDocument = await readTimes('document');
    const readMarkdown = await readTimes('markdown');

    // Two writers editing different cells of one 200-row table: the space a cell of row 10, the change
    // request one of row 150; the measured merge must merge the table by cell (not a 409: the caller throws).
    const tableMerge: number[] = [];
    for (let r = 0; r < mergeRounds; r++) {
      const tableMarkdown = (edits: Record<number, string> = {}) =>
        ['| Option | Default | Notes |', '| --- | --- | --- |', ...Array.from({ length: 200 }, (_, i) => `| \`option${i}\` | ${edits[i] ?? `${i} s`} | Round ${r}, row ${i} |`)].join('\n');
      const seed = (await call('POST', `/spaces/${large.space.id}/change-requests`, { subject: `Table ${r}` })).body;
      const table = (await batch(large.space.id, seed.id, [{ operation: 'insert_page', title: `Table ${r}`, document: { markdown: tableMarkdown() } }])).body.changes[0].page.id as string;
      await call('POST', `/spaces/${large.space.id}/change-requests/${seed.id}/merge`);
      const ours = (await call('POST', `/spaces/${large.space.id}/change-requests`, { subject: 'Ours' })).body;
      const theirs = (await call('POST', `/spaces/${large.space.id}/change-requests`, { subject: 'Theirs' })).body;
      await batch(large.space.id, theirs.id, [{ operation: 'update_page', page: table, document: { markdown: tableMarkdown({ 10: 'edited in the space' }) } }]);
      await call('POST', `/spaces/${large.space.id}/change-requests/${theirs.id}/merge`);
      await batch(large.space.id, ours.id, [{ operation: 'update_page', page: table, document: { markdown: tableMarkdown({ 150: 'edited in the change request' }) } }]);
      tableMerge.push((await call('POST', `/spaces/${large.space.id}/change-requests/${ours.id}/merge`)).ms);
      const check = (await call('GET', `/spaces/${large.space.id}/content/page/${table}?format=markdown`)).body.markdown as string;
      if (!check.includes('edited in the space') || !check.includes('edited in the change request')) throw new Error('the table merge lost an edit');
    }

    const result = {
      updateChangeRequestContent: stats(update),
      merge: stats(merge),
      onePageMerge: { [pageCount]: stats(small.times), [largePages]: stats(large.times), ratio: Math.round((median(large.times) / median(small.times)) * 100) / 100 },
      read500BlockPage: { document: stats(readDocument), markdown: stats(readMarkdown) },
      mergeOf200RowTableCells: stats(tableMerge),
    };
    console.log(kind, JSON.stringify(result));
    return result;
  } finally {
    listening.close();
    await dispose();
  }
}

async function main() {
  const results: Record<string, unknown> = { date: new Date().toISOString(), pages: pageCount, largePages, changes: changeCount, rounds, reads, loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100) };
  for (const kind of storages) results[kind] = await run(kind);
  writeFileSync(new URL('./results/content-merge.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
