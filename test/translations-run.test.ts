// Translation runs against a local LibreTranslate-compatible server: the result space, its translated
// pages, and the figures.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentRevisions, jobs, spaces, translations } from '../server/db/schema/index.js';
import { newId } from '../server/ids.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { runTranslationHandler, RUN_TRANSLATION } from '../server/translations/run.job.js';
import { loadConfig } from '../server/config.js';
import { configuredTranslator, copyTranslator, libreTranslator, type Translator } from '../server/translations/translator.js';
import { useHarness, type Account } from './support/harness.js';

const h = useHarness();
let server: Server;
let base: string;
const requests: { q: string[]; source: string; target: string }[] = [];

beforeAll(async () => {
  // A LibreTranslate stand-in: "translates" by prefixing the target language.
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/translate') return void res.writeHead(404).end();
      const body = JSON.parse(raw) as { q: string[]; source: string; target: string };
      requests.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: body.q.map((t) => `[${body.target}] ${t}`) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function page(id: string, title: string, markdown: string, parent: string | null = null) {
  const at = new Date().toISOString();
  return { id, parent, position: 'a0', type: 'document', title, slug: id, markdown, hidden: false, noIndex: false, noRobotsIndex: false, createdAt: at, updatedAt: at };
}

/** A space whose current revision holds the given pages (written straight to the database). */
async function spaceWithPages(account: Account, title: string, pages: ReturnType<typeof page>[]) {
  const id = (await account.api.post(`/orgs/${account.organizationId}/spaces`, { title })).body.id as string;
  const revisionId = newId('rev');
  await h.current.db.insert(contentRevisions).values({
    id: revisionId,
    spaceId: id,
    parents: [],
    type: 'edits',
    content: { pages, files: [], variables: {}, reusableContents: [] },
    createdAt: new Date(),
  });
  await h.current.db.update(spaces).set({ revisionId }).where(eq(spaces.id, id));
  return id;
}

async function drain(translator: Translator) {
  const runner = createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [RUN_TRANSLATION]: runTranslationHandler(translator) } });
  return runner.drain();
}

async function run(account: Account, id: string, translator: Translator) {
  expect((await account.api.post(`/orgs/${account.organizationId}/translations/${id}/run`)).status).toBe(204);
  await drain(translator);
  return (await account.api.get(`/orgs/${account.organizationId}/translations/${id}`)).body;
}

describe('translation runs', () => {
  it('produce a result space with translated page titles and texts, and the run figures', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'User guide', [
      page('p1', 'Getting started', 'Install the app and sign in.'),
      page('p2', 'Billing', 'Invoices are sent monthly.', 'p1'),
    ]);
    const created = (await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'fr' })).body;
    const done = await run(admin, created.id, libreTranslator(base));
    expect(done.status).toBe('completed');
    expect(done.result.space).not.toBe(source);
    // Words: "User guide" 2 + "Getting started" 2 + 6 + "Billing" 1 + 4.
    expect(done.stats).toMatchObject({ runs: 1, totalPages: 2, latestPages: 2, totalWords: 15, latestWords: 15 });
    expect(done.stats.latestRunDuration).toBeGreaterThanOrEqual(0);
    expect(done.stats.totalDuration).toBe(done.stats.latestRunDuration);
    expect(requests.every((r) => r.source === 'en' && r.target === 'fr')).toBe(true);

    const [result] = await h.current.db.select().from(spaces).where(eq(spaces.id, done.result.space));
    expect(result).toMatchObject({ title: '[fr] User guide', language: 'fr', organizationId: admin.organizationId, revisionId: done.result.revision });
    const [revision] = await h.current.db.select().from(contentRevisions).where(eq(contentRevisions.id, done.result.revision));
    const pages = (revision.content as { pages: { id: string; title: string; markdown: string; parent: string | null }[] }).pages;
    expect(pages.map((p) => [p.title, p.markdown, p.parent])).toEqual([
      ['[fr] Getting started', '[fr] Install the app and sign in.', null],
      ['[fr] Billing', '[fr] Invoices are sent monthly.', 'p1'],
    ]);
  });

  it('update the same result space on the next run and add up the figures', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello world.')]);
    const created = (await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'de' })).body;
    const first = await run(admin, created.id, libreTranslator(base));
    const second = await run(admin, created.id, libreTranslator(base));
    expect(second.result.space).toBe(first.result.space);
    expect(second.result.revision).not.toBe(first.result.revision);
    expect(second.stats).toMatchObject({ runs: 2, totalPages: 2, latestPages: 1, totalWords: 8, latestWords: 4 });
    const [revision] = await h.current.db.select().from(contentRevisions).where(eq(contentRevisions.id, second.result.revision));
    expect(revision.parents).toEqual([first.result.revision]);
  });

  it('translate at least the space title when the space has no pages, and copy text unchanged with the copying provider', async () => {
    const admin = await h.current.newAdmin();
    const source = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Empty space' })).body.id;
    const created = (await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'es' })).body;
    const done = await run(admin, created.id, copyTranslator);
    expect(done.stats).toMatchObject({ runs: 1, totalPages: 0, totalWords: 2 });
    const [result] = await h.current.db.select().from(spaces).where(eq(spaces.id, done.result.space));
    expect(result.title).toBe('Empty space');
  });

  it('fail the attempt (to be retried) when the translator is unreachable, leaving the figures unchanged', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello.')]);
    const created = (await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'it' })).body;
    const after = await run(admin, created.id, libreTranslator('http://127.0.0.1:1', { timeoutMs: 500, maxBytes: 1024 }));
    expect(after.status).toBe('running');
    expect(after.stats.runs).toBe(0);
    expect(after.result).toBeUndefined();
  });

  it('leave a translation pending again once its last attempt failed', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello.')]);
    const created = (await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'pt' })).body;
    await admin.api.post(`/orgs/${admin.organizationId}/translations/${created.id}/run`);
    const broken = libreTranslator('http://127.0.0.1:1', { timeoutMs: 500, maxBytes: 1024 });
    const runner = createJobRunner({
      db: h.current.db,
      logger: pino({ level: 'silent' }),
      handlers: { [RUN_TRANSLATION]: runTranslationHandler(broken) },
      backoff: { baseMs: 0, maxMs: 0 },
    });
    await runner.drain();
    const after = (await admin.api.get(`/orgs/${admin.organizationId}/translations/${created.id}`)).body;
    expect(after.status).toBe('pending');
  });

  it('leave a translation pending again when the worker of its last attempt died mid-run', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello.')]);
    const created = (await admin.api.post(`/orgs/${admin.organizationId}/translations`, { source: { space: source, language: 'en' }, language: 'pt' })).body;
    await admin.api.post(`/orgs/${admin.organizationId}/translations/${created.id}/run`);
    // The run had started (running) when the worker of the job's last allowed attempt died.
    await h.current.db.update(translations).set({ status: 'running' }).where(eq(translations.id, created.id));
    await h.current.db
      .update(jobs)
      .set({ status: 'running', attempts: sql`${jobs.maxAttempts}`, lockedUntil: new Date(Date.now() - 1) })
      .where(and(eq(jobs.kind, RUN_TRANSLATION), sql`${jobs.payload}->>'translationId' = ${created.id}`));
    expect(await drain(copyTranslator)).toBe(1);
    const after = (await admin.api.get(`/orgs/${admin.organizationId}/translations/${created.id}`)).body;
    expect(after.status).toBe('pending');
  });

  it('use the LibreTranslate provider when TRANSLATOR_URL is set, else the copying one; a bad TRANSLATOR_URL stops the start', () => {
    expect(configuredTranslator({}).name).toBe('copy');
    expect(configuredTranslator({ TRANSLATOR_URL: 'http://127.0.0.1:5000' }).name).toBe('libretranslate');
    expect(loadConfig({ TRANSLATOR_URL: 'http://127.0.0.1:5000' }).translatorUrl).toBe('http://127.0.0.1:5000');
    expect(() => loadConfig({ TRANSLATOR_URL: 'not a url' })).toThrow(/TRANSLATOR_URL/);
  });
});
