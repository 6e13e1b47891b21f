// A translation run: read the source space's current revision, translate its title and each page (title,
// description, text) through the configured Translator, then write the result space's new revision and
// the run's figures in one transaction. The provider calls happen before that transaction, so no lock
// is held while waiting on the network.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { createCtx, type Ctx } from '../context.js';
import { lastKey, lockTree } from '../content/tree.js';
import type { RevisionContent, StoredPage } from '../content/revision-content.js';
import { insertRevision, loadRevision } from '../content/revisions.store.js';
import { spaces, translations } from '../db/schema/index.js';
import { createUrls } from '../http/urls.js';
import { newId } from '../ids.js';
import type { EnqueueInput } from '../jobs/queue.js';
import type { JobContext, JobHandler } from '../jobs/runner.js';
import { configuredTranslator, type Translator } from './translator.js';

export const RUN_TRANSLATION = 'run-translation';

/** The job of one run of a translation. */
export function runTranslationJob(translationId: string): EnqueueInput {
  return { kind: RUN_TRANSLATION, payload: { translationId }, maxAttempts: 3 };
}

/** Words in a text: runs of letters or digits (what a translation is usually counted in). */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

interface Translated {
  title: string;
  pages: StoredPage[];
  words: number;
}

/** Translates the space title, then the pages one by one, each page's texts in one provider call. */
async function translateContent(translator: Translator, title: string, content: RevisionContent, from: string, to: string): Promise<Translated> {
  const [translatedTitle] = await translator.translate([title], from, to);
  let words = countWords(title);
  const pages: StoredPage[] = [];
  for (const page of content.pages) {
    const texts = [page.title, page.description ?? '', page.markdown];
    // Empty texts are not sent: nothing to translate, and some providers refuse them.
    const toSend = texts.filter((t) => t.trim() !== '');
    const out = await translator.translate(toSend, from, to);
    const translatedOf = (t: string) => (t.trim() === '' ? t : out[toSend.indexOf(t)]);
    words += toSend.reduce((n, t) => n + countWords(t), 0);
    pages.push({
      ...page,
      title: translatedOf(page.title),
      ...(page.description !== undefined && { description: translatedOf(page.description) }),
      markdown: translatedOf(page.markdown),
    });
  }
  return { title: translatedTitle, pages, words };
}

/** A Ctx for the job's unit of work (no caller, no URLs: nothing here is rendered for a client). */
function jobCtx(job: JobContext): Ctx {
  return createCtx({ caller: { userId: 'system' }, db: job.db, now: job.now, urls: createUrls('http://localhost'), log: job.log });
}

/** The handler, with the translator to use (tests pass one on a local server). */
export function runTranslationHandler(translator: Translator = configuredTranslator()): JobHandler {
  return Object.assign(run(translator), { onExhausted: endRun });
}

/** No run is in progress any more: pending when it never ran, completed when an earlier run's result stands. */
async function endRun(payload: unknown, job: JobContext): Promise<void> {
  const { translationId } = payload as { translationId: string };
  await job.db
    .update(translations)
    .set({ status: sql`CASE WHEN ${translations.runs} > 0 THEN 'completed' ELSE 'pending' END` })
    .where(and(eq(translations.id, translationId), eq(translations.status, 'running')));
}

function run(translator: Translator): JobHandler {
  return async (payload, job) => {
    const { translationId } = payload as { translationId: string };
    const startedAt = Date.now();
    const [translation] = await job.db.update(translations).set({ status: 'running' }).where(eq(translations.id, translationId)).returning();
    if (!translation) return; // deleted since
    const [source] = await job.db.select().from(spaces).where(and(eq(spaces.id, translation.sourceSpaceId), isNull(spaces.deletedAt)));
    const revision = source ? await loadRevision(job.db, source.revisionId, source.createdAt) : undefined;
    const content = revision?.content ?? { pages: [], files: [], variables: {}, reusableContents: [] };
    let translated: Translated;
    try {
      translated = await translateContent(translator, source?.title ?? '', content, translation.sourceLanguage, translation.language);
    } catch (err) {
      if (job.job.attempts >= job.job.maxAttempts) await endRun(payload, job);
      throw err;
    }
    const durationSeconds = (Date.now() - startedAt) / 1000;

    await jobCtx(job).transaction(async (tx) => {
      const [locked] = await tx.db.select().from(translations).where(eq(translations.id, translationId)).for('update');
      if (!locked) return;
      const now = tx.now();
      // The result space of an earlier run, unless it was deleted since: then a new one is made.
      const [existing] = locked.resultSpaceId
        ? await tx.db.select().from(spaces).where(and(eq(spaces.id, locked.resultSpaceId), isNull(spaces.deletedAt))).for('update')
        : [];
      let result = existing;
      if (!result) {
        await lockTree(tx, locked.organizationId);
        [result] = await tx.db
          .insert(spaces)
          .values({
            id: newId('spc', now.getTime()),
            organizationId: locked.organizationId,
            parentId: null,
            title: translated.title || 'Untitled',
            emoji: source?.emoji ?? '',
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
      const written = await insertRevision(tx, result.id, {
        parents: [result.revisionId],
        type: 'update',
        content: { ...content, pages: translated.pages },
      });
      await tx.db
        .update(spaces)
        .set({ revisionId: written.id, title: translated.title || result.title, updatedAt: now })
        .where(eq(spaces.id, result.id));
      await tx.db
        .update(translations)
        .set({
          status: 'completed',
          resultSpaceId: result.id,
          resultRevisionId: written.id,
          runs: locked.runs + 1,
          totalWords: locked.totalWords + translated.words,
          totalPages: locked.totalPages + translated.pages.length,
          totalDuration: locked.totalDuration + durationSeconds,
          latestRunDuration: durationSeconds,
          latestPages: translated.pages.length,
          latestWords: translated.words,
          updatedAt: now,
        })
        .where(eq(translations.id, translationId));
    });
    job.log.info({ translationId, pages: translated.pages.length, words: translated.words, translator: translator.name }, 'translation run done');
  };
}
