// Translations of spaces: set-up, reading, instructions, deletion and queuing runs. The runs themselves
// are background jobs (run.job.ts).
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { translationOperations } from '../../contract/translations.js';
import type { OrganizationGrant } from '../auth/access.js';
import { rowsOf } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import { keysetPageSelects, listBody, readKeysetPage, type PageRequest } from '../db/paginate.js';
import { spaces, translations } from '../db/schema/index.js';
import { BadRequest, NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import { newestFirstKey } from '../openapi/spec-view.js';
import { runTranslationJob } from './run.job.js';
import { toTranslation, type Translation, type TranslationRow } from './translation-view.js';
import { assertStorableDocument } from '../content/document-check.js';

type CreateBody = z.output<typeof translationOperations.createTranslation.body>;

const inOrganization = (grant: OrganizationGrant, id: string) => and(eq(translations.organizationId, grant.organization.id), eq(translations.id, id));

/** The selects of one page of the organization's translations, newest first: as listTranslations reads them, and listTranslations attaches them (attached-reads.ts). */
export function translationsPageSelects(ctx: Ctx, organizationId: string, page: PageRequest) {
  return keysetPageSelects(ctx.db, translations, eq(translations.organizationId, organizationId), [translations.newestFirst], page);
}

/** The translations of the organization, newest first (translationsPageSelects), from the grant's statement when they came with it. */
export async function listTranslations(ctx: Ctx, grant: OrganizationGrant, page: PageRequest) {
  const result = await readKeysetPage(grant.attached, 'translations', translationsPageSelects(ctx, grant.organization.id, page));
  return listBody(result, (row) => toTranslation(row, grant.role, ctx.urls));
}

/** Sets up a pending translation; BadRequest when both languages are the same, NotFound for a space the organization does not have. */
export async function createTranslation(ctx: Ctx, grant: OrganizationGrant, body: CreateBody): Promise<Translation> {
  if (body.language === body.source.language) {
    throw new BadRequest('Invalid request: body.language: must differ from body.source.language');
  }
  const [space] = await ctx.db
    .select({ id: spaces.id })
    .from(spaces)
    .where(and(eq(spaces.organizationId, grant.organization.id), eq(spaces.id, body.source.space), isNull(spaces.deletedAt)));
  if (!space) throw new NotFound(`Space ${body.source.space} not found`);
  if (body.instructions) assertStorableDocument(body.instructions, 'body.instructions');
  const now = ctx.now();
  const id = newId('trn', now.getTime());
  const [row] = await ctx.db
    .insert(translations)
    .values({
      id,
      organizationId: grant.organization.id,
      sourceSpaceId: space.id,
      sourceLanguage: body.source.language,
      language: body.language,
      instructions: body.instructions ?? null,
      status: 'pending',
      newestFirst: newestFirstKey(id),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toTranslation(row, grant.role, ctx.urls);
}

/** The select of one translation of the organization, as getTranslation reads it (and attaches it: server/attached-reads.ts). */
export function translationSelect(ctx: Ctx, organizationId: string, id: string) {
  return ctx.db.select().from(translations).where(and(eq(translations.organizationId, organizationId), eq(translations.id, id)));
}

/** One translation; NotFound otherwise. Read from the grant's statement when the operation attached it there. */
export async function getTranslation(ctx: Ctx, grant: OrganizationGrant, id: string): Promise<Translation> {
  const [row] = await rowsOf<TranslationRow>(grant.attached, 'translation', translationSelect(ctx, grant.organization.id, id));
  if (!row) throw new NotFound(`Translation ${id} not found`);
  return toTranslation(row, grant.role, ctx.urls);
}

/** Replaces the instructions (used from the next run on). */
export async function updateInstructions(ctx: Ctx, grant: OrganizationGrant, id: string, instructions: unknown): Promise<Translation> {
  assertStorableDocument(instructions as { nodes: unknown[] }, 'body.instructions');
  const [row] = await ctx.db.update(translations).set({ instructions, updatedAt: ctx.now() }).where(inOrganization(grant, id)).returning();
  if (!row) throw new NotFound(`Translation ${id} not found`);
  return toTranslation(row, grant.role, ctx.urls);
}

/** Deletes a translation (its result space is kept); nothing to do when absent. */
export async function deleteTranslation(ctx: Ctx, grant: OrganizationGrant, id: string): Promise<void> {
  await ctx.db.delete(translations).where(inOrganization(grant, id));
}

/** Queues a run: the translation is pending until a worker takes it. */
export async function runTranslation(ctx: Ctx, grant: OrganizationGrant, id: string): Promise<void> {
  await ctx.transaction(async (tx) => {
    const [row] = await tx.db.update(translations).set({ status: 'pending', updatedAt: tx.now() }).where(inOrganization(grant, id)).returning({ id: translations.id });
    if (!row) throw new NotFound(`Translation ${id} not found`);
    await enqueueJob(tx.db, runTranslationJob(id), tx.now());
  });
}
