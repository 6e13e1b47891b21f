// A translation run: read the source space's current revision and the result space's, work out which
// pages changed since the last run (source-hashes.ts), send only their text (titles, descriptions, the
// texts of their Documents, block by block: document-text.ts) to the configured Translator in batches, then write the
// result space's new revision, the run's figures and its report in one transaction. The provider calls
// happen before that transaction, so no lock is held while waiting on the network, and a translator that
// fails or times out leaves nothing of the run in the result space.
import { and, eq, isNull } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { createCtx, type Ctx } from '../context.js';
import { documentToMarkdown, type Document } from '../content/markdown-document.js';
import { lastKey, lockTree } from '../content/tree.js';
import type { RevisionContent, StoredPage } from '../content/revision-content.js';
import { insertRevision, loadRevision } from '../content/revisions.store.js';
import { organizations, spaces, translations } from '../db/schema/index.js';
import type { TranslationRunRecord } from '../db/schema/translations.js';
import { createUrls } from '../urls.js';
import { newId } from '../ids.js';
import type { EnqueueInput } from '../jobs/queue.js';
import type { JobContext, JobHandler } from '../jobs/runner.js';
import { documentText } from './document-text.js';
import { pageDocument } from '../content/page-content.js';
import { stableJson } from '../content/block-keys.js';
import { runKey, unitHash, TITLE_UNIT } from './source-hashes.js';
import { configuredTranslator, type TranslateRequest, type Translator } from './translator.js';
import { publish } from '../events/domain-events.js';

export const RUN_TRANSLATION = 'run-translation';

/** The job of one run of a translation. */
export function runTranslationJob(translationId: string): EnqueueInput {
  return { kind: RUN_TRANSLATION, payload: { translationId }, maxAttempts: 3 };
}

/** Words in a text: runs of letters or digits (what a translation is usually counted in). */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/** Sends the texts in batches the provider takes (a count and a size per call); the answers in order. */
export async function translateInBatches(translator: Translator, texts: string[], request: TranslateRequest): Promise<string[]> {
  const out: string[] = [];
  let batch: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length > 0) out.push(...(await translator.translate(batch, request)));
    batch = [];
    chars = 0;
  };
  for (const text of texts) {
    if (batch.length > 0 && (batch.length >= translator.batch.texts || chars + text.length > translator.batch.chars)) await flush();
    batch.push(text);
    chars += text.length;
  }
  await flush();
  return out;
}

interface Planned {
  title: string;
  pages: StoredPage[];
  hashes: Record<string, string>;
  translatedPages: number;
  skippedPages: number;
  words: number;
}

/** Texts of a run, gathered first so the translator gets full batches, and handed back where they came from. */
class TextBatch {
  readonly texts: string[] = [];
  private results: string[] = [];
  /** Adds a text; the returned function reads its translation once `translate` ran. Empty texts are not sent. */
  add(text: string): () => string {
    if (text.trim() === '') return () => text;
    const i = this.texts.push(text) - 1;
    return () => this.results[i];
  }
  addAll(texts: string[]): () => string[] {
    const reads = texts.map((t) => this.add(t));
    return () => reads.map((read) => read());
  }
  async translate(translator: Translator, request: TranslateRequest) {
    this.results = await translateInBatches(translator, this.texts, request);
  }
}

/**
 * Plans and performs the translation of what changed: a page (or the space title) whose hash matches the
 * one recorded when the result space last got its translation, and that the result still has, keeps that
 * translation; every other one is translated.
 */
async function translateChanges(
  translator: Translator,
  request: TranslateRequest,
  source: { title: string; content: RevisionContent },
  previous: { title: string; content: RevisionContent; hashes: Record<string, string> } | undefined,
): Promise<Planned> {
  const key = runKey(translator, request);
  const previousPages = new Map(previous?.content.pages.map((p) => [p.id, p]));
  const batch = new TextBatch();
  const hashes: Record<string, string> = {};

  hashes[TITLE_UNIT] = unitHash(key, [source.title]);
  const titleKept = previous !== undefined && previous.hashes[TITLE_UNIT] === hashes[TITLE_UNIT];
  const readTitle = titleKept ? () => previous.title : batch.add(source.title);

  let skippedPages = 0;
  const reads = source.content.pages.map((page) => {
    const document = pageDocument(page);
    const hash = unitHash(key, [page.title, page.description ?? '', JSON.stringify(document)]);
    hashes[page.id] = hash;
    const earlier = previousPages.get(page.id);
    if (earlier && previous?.hashes[page.id] === hash) {
      skippedPages++;
      return (): StoredPage => withDocument({ ...page, title: earlier.title, description: earlier.description }, pageDocument(earlier));
    }
    const readPageTitle = batch.add(page.title);
    const readDescription = page.description === undefined ? undefined : batch.add(page.description);
    const body = documentText(document);
    const readBody = batch.addAll(body.texts);
    return (): StoredPage => withDocument({ ...page, title: readPageTitle(), description: readDescription?.() }, body.rebuild(readBody()));
  });

  await batch.translate(translator, request);
  const pages = reads.map((read) => {
    const page = read();
    if (page.description === undefined) delete page.description;
    return page;
  });
  return {
    title: readTitle(),
    pages,
    hashes,
    translatedPages: pages.length - skippedPages,
    skippedPages,
    // Only what a translator translated counts toward usage: a copy counts no words.
    words: translator.translates ? batch.texts.reduce((n, t) => n + countWords(t), 0) : 0,
  };
}

/** The page with `document` as its content (a legacy page's Markdown and keys dropped). */
function withDocument(page: StoredPage, document: Document): StoredPage {
  const { markdown, keys, ...rest } = page;
  void markdown, void keys;
  return { ...rest, document };
}

/** A Ctx for the job's unit of work (no caller, no URLs: nothing here is rendered for a client). */
function jobCtx(job: JobContext): Ctx {
  return createCtx({ caller: { userId: 'system' }, db: job.db, now: job.now, urls: createUrls('http://localhost'), log: job.log });
}

/** The handler, with the translator to use (tests pass one on a local server); by default the configured one, read at the first run. */
export function runTranslationHandler(translator?: Translator): JobHandler {
  let resolved = translator;
  const current = () => (resolved ??= configuredTranslator());
  return Object.assign(run(current), {
    onExhausted: (payload: unknown, job: JobContext) =>
      endRun(payload, job, failure(current(), 'The run was interrupted: the worker of its last attempt stopped before finishing', job.now())),
  });
}

function failure(translator: Translator, error: string, at: Date, instructions?: string): TranslationRunRecord {
  return {
    status: 'failed',
    provider: translator.kind,
    translated: translator.translates,
    translatedPages: 0,
    skippedPages: 0,
    finishedAt: at.toISOString(),
    error,
    ...instructionsUse(translator, instructions),
  };
}

/** `instructionsUsed` of a run's report: present when the translation has instructions, false when the translator cannot take them. */
function instructionsUse(translator: Translator, instructions: string | undefined): Pick<TranslationRunRecord, 'instructionsUsed'> {
  return instructions === undefined ? {} : { instructionsUsed: translator.takesInstructions };
}

/** The run ended without a result: `failed`, with the report saying why (an earlier run's result space, if any, stands). */
async function endRun(payload: unknown, job: JobContext, report: TranslationRunRecord): Promise<void> {
  const { translationId } = payload as { translationId: string };
  await job.db
    .update(translations)
    .set({ status: 'failed', latestRun: report, updatedAt: job.now() })
    .where(and(eq(translations.id, translationId), eq(translations.status, 'running')));
}

/** Whether the organization's AI features are on (`ai`); a deleted organization has none. */
async function organizationAllowsAi(job: JobContext, organizationId: string): Promise<boolean> {
  const [row] = await job.db.select({ ai: organizations.ai }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.ai ?? false;
}

/** The space's title and current content, unless it is deleted. */
async function spaceContent(job: JobContext, spaceId: string | null) {
  if (spaceId === null) return undefined;
  const [space] = await job.db.select().from(spaces).where(and(eq(spaces.id, spaceId), isNull(spaces.deletedAt)));
  if (!space) return undefined;
  const revision = await loadRevision(job.db, space.revisionId, space.createdAt);
  return { space, content: revision?.content ?? { pages: [], files: [], variables: {}, reusableContents: [] } };
}

function run(current: () => Translator): JobHandler {
  return async (payload, job) => {
    const translator = current();
    const { translationId } = payload as { translationId: string };
    const startedAt = Date.now();
    const [translation] = await job.db.update(translations).set({ status: 'running' }).where(eq(translations.id, translationId)).returning();
    if (!translation) return; // deleted since
    if (translator.ai && !(await organizationAllowsAi(job, translation.organizationId))) {
      // Refused before anything is read or sent: no text of this organization goes to a model.
      const reason =
        `AI features are off for this organization (ai: false) and the server's translator is an AI model ` +
        `(${translator.kind}): no text was sent to it. Turn AI features on, or set up a translator that is not a model (TRANSLATOR_KIND=libretranslate).`;
      await endRun(payload, job, failure(translator, reason, job.now()));
      return;
    }
    const source = await spaceContent(job, translation.sourceSpaceId);
    if (!source) {
      // Translating nothing would write an empty space over the last translation: the run fails instead.
      const reason = translation.sourceSpaceId
        ? `The source space ${translation.sourceSpaceId} is in the trash or was deleted; the translated space was left as it was`
        : 'The translation has no source space any more; the translated space was left as it was';
      job.log.warn({ translationId, sourceSpaceId: translation.sourceSpaceId }, 'translation run failed: no source space');
      await endRun(payload, job, failure(translator, reason, job.now()));
      return;
    }
    const result = await spaceContent(job, translation.resultSpaceId);
    const instructions = translation.instructions
      ? documentToMarkdown(translation.instructions as components['schemas']['Document']).trim() || undefined
      : undefined;
    const request: TranslateRequest = { from: translation.sourceLanguage, to: translation.language, ...(instructions && { instructions }) };

    let planned: Planned;
    try {
      planned = await translateChanges(
        translator,
        request,
        { title: source?.space.title ?? '', content: source?.content ?? { pages: [], files: [], variables: {}, reusableContents: [] } },
        result && translation.sourceHashes ? { title: result.space.title, content: result.content, hashes: translation.sourceHashes } : undefined,
      );
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      job.log.warn({ translationId, translator: translator.kind, attempt: job.job.attempts, err: reason }, 'translation run failed');
      if (job.job.attempts >= job.job.maxAttempts) await endRun(payload, job, failure(translator, `The translator failed: ${reason}`, job.now(), instructions));
      throw err;
    }
    const durationSeconds = (Date.now() - startedAt) / 1000;
    const content = { ...(source?.content ?? { pages: [], files: [], variables: {}, reusableContents: [] }), pages: planned.pages };

    await jobCtx(job).transaction(async (tx) => {
      const [locked] = await tx.db.select().from(translations).where(eq(translations.id, translationId)).for('update');
      if (!locked) return;
      const now = tx.now();
      // The result space of an earlier run, unless it was deleted since: then a new one is made.
      const [existing] = locked.resultSpaceId
        ? await tx.db.select().from(spaces).where(and(eq(spaces.id, locked.resultSpaceId), isNull(spaces.deletedAt))).for('update')
        : [];
      let target = existing;
      if (!target) {
        await lockTree(tx, locked.organizationId);
        [target] = await tx.db
          .insert(spaces)
          .values({
            id: newId('spc', now.getTime()),
            organizationId: locked.organizationId,
            parentId: null,
            title: planned.title || 'Untitled',
            emoji: source?.space.emoji ?? '',
            visibility: 'private',
            editMode: 'live',
            mergeRules: { type: 'inherit' },
            language: locked.language,
            revisionId: newId('rev', now.getTime()),
            position: await lastKey(tx, locked.organizationId, null),
            createdAt: now,
            updatedAt: now,
          })
          .returning();
      }
      // A run that changes nothing (every page skipped, none moved or removed) adds no revision.
      const unchanged =
        existing !== undefined &&
        result?.space.id === existing.id &&
        result.space.revisionId === existing.revisionId &&
        existing.title === planned.title &&
        stableJson(result.content.pages) === stableJson(planned.pages);
      let revisionId = target.revisionId;
      if (!unchanged) {
        const written = await insertRevision(tx, target.id, { parents: [target.revisionId], type: 'update', content });
        revisionId = written.id;
        await tx.db.update(spaces).set({ revisionId, title: planned.title || target.title, updatedAt: now }).where(eq(spaces.id, target.id));
        await publish(tx, 'space content updated', { spaceId: target.id, revisionId, previousRevisionId: target.revisionId });
      }
      const report: TranslationRunRecord = {
        status: 'completed',
        provider: translator.kind,
        translated: translator.translates,
        translatedPages: planned.translatedPages,
        skippedPages: planned.skippedPages,
        finishedAt: now.toISOString(),
        ...instructionsUse(translator, instructions),
      };
      await tx.db
        .update(translations)
        .set({
          status: 'completed',
          resultSpaceId: target.id,
          resultRevisionId: revisionId,
          runs: locked.runs + 1,
          totalWords: locked.totalWords + planned.words,
          totalPages: locked.totalPages + planned.translatedPages,
          totalDuration: locked.totalDuration + durationSeconds,
          latestRunDuration: durationSeconds,
          latestPages: planned.translatedPages,
          latestWords: planned.words,
          latestRun: report,
          sourceHashes: planned.hashes,
          updatedAt: now,
        })
        .where(eq(translations.id, translationId));
    });
    job.log.info(
      { translationId, translated: planned.translatedPages, skipped: planned.skippedPages, words: planned.words, translator: translator.kind, copy: !translator.translates },
      translator.translates ? 'translation run done' : 'translation run done with the copy provider: text copied, not translated',
    );
  };
}
