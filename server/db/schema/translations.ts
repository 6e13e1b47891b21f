// Translations of spaces: the source, the target language, the space holding the result, and run figures.
import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, orderKey, updatedAt } from './columns.js';
import { spaces } from './content.js';
import { organizations } from './core.js';

export interface TranslationRunRecord {
  status: 'completed' | 'failed';
  provider: 'copy' | 'libretranslate' | 'openai' | 'memory';
  translated: boolean;
  translatedPages: number;
  skippedPages: number;
  finishedAt: string;
  error?: string;
  /** Present when the translation had instructions: whether the translator was given them. */
  instructionsUsed?: boolean;
}

export const translationStatusValues = ['pending', 'running', 'completed', 'failed'] as const;

export const translations = pgTable(
  'translations',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // A translation of a space that is gone for good has nothing left to translate.
    sourceSpaceId: text('source_space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sourceLanguage: text('source_language').notNull(),
    language: text('language').notNull(),
    instructions: jsonb('instructions').$type<unknown>(),
    status: text('status').notNull(),
    // The result space outlives the translation (deleting a translation keeps it); a purged one is made again by the next run.
    resultSpaceId: text('result_space_id').references(() => spaces.id, { onDelete: 'set null' }),
    resultRevisionId: text('result_revision_id'),
    runs: integer('runs').notNull().default(0),
    totalWords: integer('total_words').notNull().default(0),
    totalPages: integer('total_pages').notNull().default(0),
    totalDuration: doublePrecision('total_duration').notNull().default(0),
    latestRunDuration: doublePrecision('latest_run_duration'),
    latestPages: integer('latest_pages'),
    latestWords: integer('latest_words'),
    // How the latest run ended (the API's `latestRun`): completed or failed, provider, pages translated and skipped.
    latestRun: jsonb('latest_run').$type<TranslationRunRecord>(),
    // What each unit of the source looked like when the result space last got its translation (a hash per page
    // id, `$title` for the space title, of the text and what it was translated with): a run sends only units
    // whose hash changed.
    sourceHashes: jsonb('source_hashes').$type<Record<string, string>>(),
    // The id with every character inverted: an ascending keyset lists the newest first.
    newestFirst: orderKey('newest_first').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('translations_org_newest_idx').on(t.organizationId, t.newestFirst),
    check('translations_status_check', sql.raw(`status IN (${oneOf(translationStatusValues)})`)),
  ],
);
