// Translation runs against stand-in translators on a local server, one for each protocol: LibreTranslate
// (`POST /translate`) and OpenAI-compatible chat completions (`POST /v1/chat/completions`). Both
// "translate" by upper-casing, so any code or URL that reached them would come back changed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pageDocument, pageMarkdown } from '../server/content/page-content.js';
import type { StoredPage } from '../server/content/revision-content.js';
import { contentRevisions, jobs, spaces, translations } from '../server/db/schema/index.js';
import { loadRevision } from '../server/content/revisions.store.js';
import { newId } from '../server/ids.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { runTranslationHandler, RUN_TRANSLATION } from '../server/translations/run.job.js';
import { loadConfig } from '../server/config.js';
import { configuredTranslator, copyTranslator, libreTranslator, openAITranslator, type Translator } from '../server/translations/translator.js';
import { useHarness, type Account } from './support/harness.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();
let server: Server;
let base: string;

/** How the stand-ins answer: `ok`, `fail-after` (a 500 once `okCalls` calls were answered), `hang` (never). */
const behaviour = { mode: 'ok' as 'ok' | 'fail-after' | 'hang', okCalls: 0, answered: 0 };
const libreCalls: { q: string[]; source: string; target: string; api_key?: string }[] = [];
const chatCalls: { body: { model: string; messages: { role: string; content: string }[] }; authorization?: string }[] = [];

beforeEach(() => {
  behaviour.mode = 'ok';
  behaviour.okCalls = 0;
  behaviour.answered = 0;
  libreCalls.length = 0;
  chatCalls.length = 0;
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (behaviour.mode === 'hang') return; // never answers
      if (behaviour.mode === 'fail-after' && behaviour.answered >= behaviour.okCalls) {
        return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model overloaded' } }));
      }
      behaviour.answered++;
      if (req.method === 'POST' && req.url === '/translate') {
        const body = JSON.parse(raw);
        libreCalls.push(body);
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: body.q.map((t: string) => t.toUpperCase()) }));
      }
      if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        const body = JSON.parse(raw);
        chatCalls.push({ body, authorization: req.headers.authorization });
        const { texts } = JSON.parse(body.messages.at(-1).content) as { texts: string[] };
        // Models often wrap JSON in a fence.
        const content = '```json\n' + JSON.stringify({ translations: texts.map((t) => t.toUpperCase()) }) + '\n```';
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const libre = () => libreTranslator(base, { timeoutMs: 5_000, maxBytes: 1024 * 1024 });
const openai = (timeoutMs = 5_000) => openAITranslator({ baseUrl: `${base}/v1`, model: 'stand-in-model', apiKey: 'sk-test-key', limits: { timeoutMs, maxBytes: 1024 * 1024 } });

function page(id: string, title: string, markdown: string, parent: string | null = null) {
  const at = new Date().toISOString();
  return { id, parent, position: 'a0', type: 'document', title, slug: id, markdown, hidden: false, noIndex: false, noRobotsIndex: false, createdAt: at, updatedAt: at };
}

/** Writes a new current revision of the space holding the given pages (straight to the database). */
async function setPages(spaceId: string, pages: ReturnType<typeof page>[]) {
  const revisionId = newId('rev');
  await h.current.db.insert(contentRevisions).values({
    id: revisionId,
    spaceId,
    parents: [],
    type: 'edits',
    content: { pages, files: [], variables: {}, reusableContents: [] },
    createdAt: new Date(),
  });
  await h.current.db.update(spaces).set({ revisionId }).where(eq(spaces.id, spaceId));
}

async function spaceWithPages(account: Account, title: string, pages: ReturnType<typeof page>[]) {
  const res = await account.api.post(`/orgs/${account.organizationId}/spaces`, { title });
  expect(res.status).toBe(201);
  await setPages(res.body.id, pages);
  return res.body.id as string;
}

async function createTranslation(account: Account, source: string, language: string, instructions?: object) {
  const res = await account.api.post(`/orgs/${account.organizationId}/translations`, { source: { space: source, language: 'en' }, language, ...(instructions && { instructions }) });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function drain(translator: Translator, backoff?: { baseMs: number; maxMs: number }) {
  const runner = createJobRunner({ db: h.current.db, logger: pino({ level: 'silent' }), handlers: { [RUN_TRANSLATION]: runTranslationHandler(translator) }, ...(backoff && { backoff }) });
  return runner.drain();
}

async function get(account: Account, id: string) {
  const res = await account.api.get(`/orgs/${account.organizationId}/translations/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function run(account: Account, id: string, translator: Translator, backoff?: { baseMs: number; maxMs: number }) {
  expect((await account.api.post(`/orgs/${account.organizationId}/translations/${id}/run`)).status).toBe(204);
  await drain(translator, backoff);
  return get(account, id);
}

async function resultPages(revisionId: string) {
  // Each page as stored (its Document loaded from content_documents), with its content as the `markdown` format shows it.
  const { pages } = (await loadRevision(h.current.db, revisionId, new Date())).content;
  return pages.map((p) => ({ ...p, markdown: pageMarkdown(p) }));
}

const CODE_PAGE = [
  'Install the tool with `npm install tool`, then read https://example.com/docs and [the guide](https://example.com/guide).',
  '',
  '```bash',
  'npm install tool --save',
  '```',
  '',
  '- Keep the **API key** secret',
].join('\n');

const instructions = {
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use the formal "vous". Keep "Acme Cloud" untranslated.', marks: [] }] }] }],
};

describe('translation runs', () => {
  it('with LibreTranslate translate text only: code blocks, inline code and URLs come back untouched; the run reports its figures', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'User guide', [page('p1', 'Getting started', CODE_PAGE), page('p2', 'Billing', 'Invoices are sent monthly.', 'p1')]);
    const id = await createTranslation(admin, source, 'fr');
    const done = await run(admin, id, libre());
    expect(done.status).toBe('completed');
    expect(done.latestRun).toMatchObject({ status: 'completed', provider: 'libretranslate', translated: true, translatedPages: 2, skippedPages: 0 });
    expect(done.latestRun.error).toBeUndefined();
    expect(done.latestRun.instructionsUsed).toBeUndefined(); // the translation has no instructions
    expect(done.result.space).not.toBe(source);
    // Nothing but text reached the translator.
    const sent = libreCalls.flatMap((c) => c.q);
    expect(sent.some((t) => t.includes('npm') || t.includes('example.com') || t.includes('`') || t.includes('**'))).toBe(false);
    expect(sent).toContain('Install the tool with');
    expect(libreCalls.every((c) => c.source === 'en' && c.target === 'fr')).toBe(true);
    // Words: "User guide" 2 + "Getting started" 2 + "Install the tool with" 4 + "then read" 2 + "and" 1 + "the guide" 2
    // + "Keep the" 2 + "API key" 2 + "secret" 1 + "Billing" 1 + "Invoices are sent monthly." 4.
    expect(done.stats).toMatchObject({ runs: 1, totalPages: 2, latestPages: 2, totalWords: 23, latestWords: 23 });

    const [result] = await h.current.db.select().from(spaces).where(eq(spaces.id, done.result.space));
    expect(result).toMatchObject({ title: 'USER GUIDE', language: 'fr', revisionId: done.result.revision });
    // The result says which language its space was translated into: the one the translator was asked for.
    expect(done.result.language).toBe('fr');
    expect(done.result.language).toBe(result.language);
    const pages = await resultPages(done.result.revision);
    expect(pages.map((p) => [p.id, p.title, p.parent])).toEqual([
      ['p1', 'GETTING STARTED', null],
      ['p2', 'BILLING', 'p1'],
    ]);
    expect(pages[0].markdown).toBe(
      [
        'INSTALL THE TOOL WITH `npm install tool`, THEN READ <https://example.com/docs> AND [THE GUIDE](https://example.com/guide).',
        '',
        '```bash',
        'npm install tool --save',
        '```',
        '',
        '- KEEP THE **API KEY** SECRET',
      ].join('\n'),
    );
    expect(pages[1].markdown).toBe('INVOICES ARE SENT MONTHLY.');
  });

  it('with an OpenAI-compatible model send the instructions in the prompt, the model and the key, and only text', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Acme Cloud', [page('p1', 'Setup', CODE_PAGE)]);
    const id = await createTranslation(admin, source, 'fr', instructions);
    const done = await run(admin, id, openai());
    expect(done.latestRun).toMatchObject({ status: 'completed', provider: 'openai', translated: true, translatedPages: 1, skippedPages: 0, instructionsUsed: true });
    expect(chatCalls.length).toBeGreaterThan(0);
    for (const call of chatCalls) {
      expect(call.authorization).toBe('Bearer sk-test-key');
      expect(call.body.model).toBe('stand-in-model');
      const system = call.body.messages[0];
      expect(system.role).toBe('system');
      expect(system.content).toContain('Use the formal "vous". Keep "Acme Cloud" untranslated.');
      expect(system.content).toContain('"en"');
      expect(system.content).toContain('"fr"');
    }
    const sent = chatCalls.flatMap((c) => JSON.parse(c.body.messages.at(-1)!.content).texts as string[]);
    expect(sent.some((t) => t.includes('npm') || t.includes('https://'))).toBe(false);
    const [translated] = await resultPages(done.result.revision);
    expect(translated.title).toBe('SETUP');
    expect(translated.markdown).toContain('```bash\nnpm install tool --save\n```');
    expect(translated.markdown).toContain('`npm install tool`');
    expect(translated.markdown).toContain('[THE GUIDE](https://example.com/guide)');

    // New instructions apply from the next run on: every page is translated again with them.
    const changed = { ...instructions, nodes: [{ ...instructions.nodes[0], nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use "tu".', marks: [] }] }] }] };
    expect((await admin.api.put(`/orgs/${admin.organizationId}/translations/${id}`, { instructions: changed })).status).toBe(200);
    chatCalls.length = 0;
    const again = await run(admin, id, openai());
    expect(again.latestRun).toMatchObject({ translatedPages: 1, skippedPages: 0 });
    expect(chatCalls[0].body.messages[0].content).toContain('Use "tu".');
  });

  it('with LibreTranslate say the instructions were not used, as they cannot be sent to it', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Acme Cloud', [page('p1', 'Setup', 'Open the console.')]);
    const id = await createTranslation(admin, source, 'fr', instructions);
    const done = await run(admin, id, libre());
    expect(done.status).toBe('completed');
    expect(done.latestRun).toMatchObject({ status: 'completed', provider: 'libretranslate', translated: true, instructionsUsed: false });
    expect(JSON.stringify(libreCalls)).not.toContain('vous');
    const copied = await run(admin, id, copyTranslator);
    expect(copied.latestRun).toMatchObject({ provider: 'copy', translated: false, instructionsUsed: false });
  });

  it('translate only the pages changed since the last run and say how many were skipped', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello world.'), page('p2', 'Usage', 'Call the endpoint.'), page('p3', 'Limits', 'Ten per second.')]);
    const id = await createTranslation(admin, source, 'de');
    const first = await run(admin, id, libre());
    expect(first.latestRun).toMatchObject({ translatedPages: 3, skippedPages: 0 });

    // p2 changes, p3 goes, p4 comes.
    await setPages(source, [page('p1', 'Intro', 'Hello world.'), page('p2', 'Usage', 'Call the new endpoint.'), page('p4', 'Errors', 'Retry later.')]);
    libreCalls.length = 0;
    const second = await run(admin, id, libre());
    expect(second.latestRun).toMatchObject({ status: 'completed', translatedPages: 2, skippedPages: 1 });
    expect(second.stats).toMatchObject({ runs: 2, latestPages: 2, totalPages: 5 });
    const sent = libreCalls.flatMap((c) => c.q);
    expect(sent).toEqual(expect.arrayContaining(['Usage', 'Call the new endpoint.', 'Errors', 'Retry later.']));
    expect(sent).not.toContain('Intro');
    expect(sent).not.toContain('Guide');
    expect(second.result.space).toBe(first.result.space);
    expect(second.result.language).toBe('de');
    const pages = await resultPages(second.result.revision);
    expect(pages.map((p) => [p.id, p.title, p.markdown])).toEqual([
      ['p1', 'INTRO', 'HELLO WORLD.'],
      ['p2', 'USAGE', 'CALL THE NEW ENDPOINT.'],
      ['p4', 'ERRORS', 'RETRY LATER.'],
    ]);

    // Nothing changed: nothing is sent, and no revision is added.
    libreCalls.length = 0;
    const third = await run(admin, id, libre());
    expect(libreCalls).toHaveLength(0);
    expect(third.latestRun).toMatchObject({ status: 'completed', translatedPages: 0, skippedPages: 3 });
    expect(third.stats).toMatchObject({ runs: 3, latestPages: 0, latestWords: 0 });
    expect(third.result.revision).toBe(second.result.revision);
  });

  it('fail the run with a clear error when the translator fails mid-run, leaving the result space as it was', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello.')]);
    const id = await createTranslation(admin, source, 'it');
    const first = await run(admin, id, libre());
    const [before] = await h.current.db.select().from(spaces).where(eq(spaces.id, first.result.space));
    const revisionsOf = async () => (await h.current.db.select({ id: contentRevisions.id }).from(contentRevisions).where(eq(contentRevisions.spaceId, first.result.space))).map((r) => r.id).sort();
    const revisionsBefore = await revisionsOf();

    // Many changed pages: several batches, the second of which fails on every attempt.
    await setPages(source, Array.from({ length: 60 }, (_, i) => page(`p${i}`, `Page ${i}`, `Text ${i}.`)));
    behaviour.mode = 'fail-after';
    behaviour.answered = 0;
    behaviour.okCalls = 1;
    const failed = await run(admin, id, libre(), { baseMs: 0, maxMs: 0 });
    expect(failed.status).toBe('failed'); // the earlier run's result stands: `result` is unchanged
    expect(failed.latestRun).toMatchObject({ status: 'failed', provider: 'libretranslate', translatedPages: 0, skippedPages: 0 });
    expect(failed.latestRun.error).toMatch(/translator failed: .*answered 500/);
    expect(failed.stats.runs).toBe(1);
    expect(failed.result).toEqual(first.result);
    const [after] = await h.current.db.select().from(spaces).where(eq(spaces.id, first.result.space));
    expect(after).toEqual(before);
    expect(await revisionsOf()).toEqual(revisionsBefore);
    // The stand-in did translate the first batch: the failure came after it, and none of it was kept.
    expect(libreCalls.length).toBeGreaterThan(1);
  });

  it('fail a first run that times out without creating a result space', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello.')]);
    const id = await createTranslation(admin, source, 'es');
    const spacesBefore = (await h.current.db.select({ id: spaces.id }).from(spaces).where(eq(spaces.organizationId, admin.organizationId))).length;
    behaviour.mode = 'hang';
    const failed = await run(admin, id, openai(300), { baseMs: 0, maxMs: 0 });
    expect(failed.status).toBe('failed');
    expect(failed.result).toBeUndefined();
    expect(failed.latestRun).toMatchObject({ status: 'failed', provider: 'openai' });
    expect(failed.latestRun.error).toMatch(/did not answer within 300 ms/);
    const spacesAfter = (await h.current.db.select({ id: spaces.id }).from(spaces).where(eq(spaces.organizationId, admin.organizationId))).length;
    expect(spacesAfter).toBe(spacesBefore);
  });

  it('keep the translation running while a failed attempt waits for its retry', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello.')]);
    const id = await createTranslation(admin, source, 'it');
    const after = await run(admin, id, libreTranslator('http://127.0.0.1:1', { timeoutMs: 500, maxBytes: 1024 }));
    expect(after.status).toBe('running');
    expect(after.stats.runs).toBe(0);
    expect(after.result).toBeUndefined();
    expect(after.latestRun).toBeUndefined();
    // Its retry is not for the tests that follow to run.
    await h.current.db.delete(jobs).where(and(eq(jobs.kind, RUN_TRANSLATION), sql`${jobs.payload}->>'translationId' = ${id}`));
  });

  it('label a run of the copy provider as a copy: text unchanged, no words counted as translated', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', CODE_PAGE)]);
    const id = await createTranslation(admin, source, 'es');
    const done = await run(admin, id, copyTranslator);
    expect(done.status).toBe('completed');
    expect(done.latestRun).toMatchObject({ status: 'completed', provider: 'copy', translated: false, translatedPages: 1, skippedPages: 0 });
    expect(done.stats).toMatchObject({ runs: 1, latestWords: 0, totalWords: 0 });
    const [copied] = await resultPages(done.result.revision);
    // The copy keeps the page's Document; its Markdown is written from it (a bare URL as an autolink).
    expect(copied.markdown).toBe(CODE_PAGE.replace('https://example.com/docs', '<https://example.com/docs>'));
    // Once a translator is set up, the copies are translated for real.
    const translated = await run(admin, id, libre());
    expect(translated.latestRun).toMatchObject({ provider: 'libretranslate', translated: true, translatedPages: 1, skippedPages: 0 });
  });

  it('mark a translation failed when the worker of its last attempt died mid-run, and say so', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello.')]);
    const id = await createTranslation(admin, source, 'pt');
    expect((await admin.api.post(`/orgs/${admin.organizationId}/translations/${id}/run`)).status).toBe(204);
    // The run had started (running) when the worker of the job's last allowed attempt died.
    await h.current.db.update(translations).set({ status: 'running' }).where(eq(translations.id, id));
    await h.current.db
      .update(jobs)
      .set({ status: 'running', attempts: sql`${jobs.maxAttempts}`, lockedUntil: new Date(Date.now() - 1) })
      .where(and(eq(jobs.kind, RUN_TRANSLATION), sql`${jobs.payload}->>'translationId' = ${id}`));
    expect(await drain(copyTranslator)).toBe(1);
    const after = await get(admin, id);
    expect(after.status).toBe('failed');
    expect(after.latestRun).toMatchObject({ status: 'failed', error: expect.stringMatching(/interrupted/) });
    // Queued again, it is pending until the run starts.
    expect((await admin.api.post(`/orgs/${admin.organizationId}/translations/${id}/run`)).status).toBe(204);
    expect((await get(admin, id)).status).toBe('pending');
  });

  it('translate the text of hints and tabs only: the blocks keep their form, style and titles in the translated space', async () => {
    const admin = await h.current.newAdmin();
    const markdown = '{% hint style="warning" %}\nMind the **gap**.\n{% endhint %}\n\n{% tabs %}\n{% tab title="npm" %}\nRun it.\n{% endtab %}\n{% endtabs %}';
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Start', markdown)]);
    const id = await createTranslation(admin, source, 'fr');
    const done = await run(admin, id, libre());
    expect(done.status).toBe('completed');
    const sent = libreCalls.flatMap((c) => c.q);
    expect(sent.some((t) => t.includes('{%') || t.includes('hint') || t.includes('style'))).toBe(false);
    expect(sent).toEqual(expect.arrayContaining(['Mind the', 'gap', 'Run it.', 'npm']));
    const [translated] = await resultPages(done.result.revision);
    expect(translated.markdown).toBe('{% hint style="warning" %}\nMIND THE **GAP**.\n{% endhint %}\n\n{% tabs %}\n{% tab title="NPM" %}\nRUN IT.\n{% endtab %}\n{% endtabs %}');
    const document = pageDocument(translated);
    expect(document.nodes.map((b) => [b.type, b.data])).toEqual([
      ['hint', { style: 'warning' }],
      ['tabs', undefined],
    ]);
  });

  it('tell the integrations covering the translated space that its content changed, with the run\'s revision', async () => {
    const admin = await h.current.newAdmin();
    const name = `translated-${newId('x').slice(-8).toLowerCase()}`;
    await publishAs(admin, name, { script: `export default { async fetch() { return new Response('ok'); } }` });
    const installed = await admin.api.post(`/integrations/${name}/installations`, { organization: admin.organizationId });
    expect(installed.status).toBe(200);
    // Every space of the organization, so the space the first run creates is covered too.
    expect((await admin.api.patch(`/integrations/${name}/installations/${installed.body.id}`, { space_selection: 'all' })).status).toBe(200);
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Intro', 'Hello world.')]);
    const id = await createTranslation(admin, source, 'de');
    const first = await run(admin, id, libre());
    expect(first.latestRun).toMatchObject({ status: 'completed', translatedPages: 1 });
    await setPages(source, [page('p1', 'Intro', 'Hello again.')]);
    const second = await run(admin, id, libre());
    expect(second.result.revision).not.toBe(first.result.revision);

    const events = await admin.api.get(`/integrations/${name}/events`);
    expect(events.status).toBe(200);
    const updates = events.body.items
      .map((e: { payload: { type: string; spaceId: string; revisionId: string } }) => e.payload)
      .filter((p: { type: string; spaceId: string }) => p.type === 'space_content_updated' && p.spaceId === second.result.space);
    expect(updates.map((p: { revisionId: string }) => p.revisionId).sort()).toEqual([first.result.revision, second.result.revision].sort());
  });

  it('fail a run whose source space is in the trash, saying why, and leave the translated space as it was', async () => {
    const admin = await h.current.newAdmin();
    const source = await spaceWithPages(admin, 'Guide', [page('p1', 'Start', 'Hello world.')]);
    const id = await createTranslation(admin, source, 'fr');
    const first = await run(admin, id, libre());
    expect(first.status).toBe('completed');
    const [before] = await h.current.db.select().from(spaces).where(eq(spaces.id, first.result.space));
    expect((await admin.api.delete(`/spaces/${source}`)).status).toBe(204);
    libreCalls.length = 0;
    const second = await run(admin, id, libre());
    expect(second.latestRun).toMatchObject({ status: 'failed', translatedPages: 0 });
    expect(second.latestRun.error).toContain(`The source space ${source} is in the trash or was deleted`);
    expect(second.status).toBe('failed'); // the latest run failed; the earlier run's result stands
    expect(second.result.space).toBe(first.result.space);
    expect(libreCalls).toEqual([]);
    const [after] = await h.current.db.select().from(spaces).where(eq(spaces.id, first.result.space));
    expect(after.revisionId).toBe(before.revisionId);
    const pages = await resultPages(after.revisionId);
    expect(pages.map((p) => p.markdown)).toEqual(['HELLO WORLD.']);
  });

  it('choose the provider from TRANSLATOR_KIND and check its settings at start', () => {
    expect(configuredTranslator({}).kind).toBe('copy');
    expect(configuredTranslator({ TRANSLATOR_URL: 'http://127.0.0.1:5000' }).kind).toBe('libretranslate');
    const model = configuredTranslator({ TRANSLATOR_KIND: 'openai', TRANSLATOR_URL: 'http://127.0.0.1:11434/v1', TRANSLATOR_MODEL: 'llama3.1' });
    expect([model.kind, model.label, model.translates]).toEqual(['openai', 'llama3.1', true]);
    expect(configuredTranslator({ TRANSLATOR_KIND: 'copy', TRANSLATOR_URL: 'http://127.0.0.1:5000' }).kind).toBe('copy');
    expect(loadConfig({ TRANSLATOR_URL: 'http://127.0.0.1:5000' }).translatorUrl).toBe('http://127.0.0.1:5000');
    expect(() => loadConfig({ TRANSLATOR_URL: 'not a url' })).toThrow(/TRANSLATOR_URL/);
    expect(() => loadConfig({ TRANSLATOR_KIND: 'deepl' })).toThrow(/TRANSLATOR_KIND/);
    expect(() => loadConfig({ TRANSLATOR_KIND: 'libretranslate' })).toThrow(/TRANSLATOR_URL: is required/);
    expect(() => loadConfig({ TRANSLATOR_KIND: 'openai', TRANSLATOR_URL: 'http://127.0.0.1:11434/v1' })).toThrow(/TRANSLATOR_MODEL: is required/);
  });
});
