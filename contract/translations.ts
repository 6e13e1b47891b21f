// Translations of spaces.
import { DateTime, listExample, listOf, paginationQuery, TranslationLanguage } from './common.js';
import { Document, documentExample } from './document.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

const translationId = 'trn_01JD3QF4R7BX2KE';
const translatedRevisionId = 'rev_01JD3QM6C8RX5TG';

export const translationExample = {
  object: 'translation' as const,
  id: translationId,
  status: 'completed' as const,
  source: { space: ex.spaceId, language: 'en' as const },
  language: 'fr' as const,
  instructions: documentExample,
  result: { space: ex.spaceId2, revision: translatedRevisionId, language: 'fr' as const },
  createdAt: ex.createdAt,
  updatedAt: ex.updatedAt,
  stats: {
    runs: 3,
    totalWords: 48210,
    totalPages: 126,
    totalDuration: 1843,
    latestRunDuration: 212,
    latestPages: 14,
    latestWords: 5230,
  },
  latestRun: {
    status: 'completed' as const,
    provider: 'openai' as const,
    translated: true,
    translatedPages: 14,
    skippedPages: 112,
    finishedAt: ex.updatedAt,
  },
  permissions: { view: true, edit: true },
  urls: { location: `${ex.baseUrl}/v1/orgs/${ex.orgId}/translations/${translationId}` },
};

export const TranslationStatus = z
  .enum(['pending', 'running', 'completed', 'failed'])
  .openapi('TranslationStatus', {
    description:
      'pending: never run, or a run is queued; running: a run is in progress; completed: the latest run finished; ' +
      'failed: the latest run failed (`latestRun.error` says why; the result of an earlier run, if any, stands).',
    example: 'completed',
  });

export const TranslationRun = z
  .object({
    status: z.enum(['completed', 'failed']).openapi({
      description:
        '`completed`: the result space holds the run\'s output; `failed`: the translator failed or did not answer in time, ' +
        'and the result space was left as it was (nothing of the run is written).',
    }),
    provider: z.enum(['copy', 'libretranslate', 'openai', 'memory']).openapi({
      description:
        'The translator the server is set up with (`TRANSLATOR_KIND`): `copy` copies the text unchanged (no translator is ' +
        'configured), `libretranslate` a LibreTranslate server, `openai` an OpenAI-compatible chat-completions model; ' +
        '`memory`: texts taken from a fixed translation memory (the demo workspace\'s French, seeded without a translator).',
    }),
    translated: z.boolean().openapi({ description: 'Whether the text was machine translated; false with the `copy` provider, whose output is the source text.' }),
    translatedPages: z.number().int().min(0).openapi({ description: 'Pages sent to the translator: new pages, and pages changed since the previous run.' }),
    skippedPages: z.number().int().min(0).openapi({ description: 'Pages unchanged since the previous run, whose earlier translation was kept.' }),
    finishedAt: DateTime,
    error: z.string().openapi({ description: 'Why the run failed.' }).optional(),
    instructionsUsed: z
      .boolean()
      .openapi({
        description:
          'Present when the translation has instructions: whether the translator was given them. Only an `openai` ' +
          'translator takes instructions; `libretranslate`, `copy` and `memory` runs translate without them (false).',
      })
      .optional(),
  })
  .openapi('TranslationRun', { description: 'The outcome of a translation run.' });

export const Translation = z
  .object({
    object: z.literal('translation'),
    id: z.string(),
    status: TranslationStatus,
    source: z
      .object({
        space: z.string().openapi({ description: 'Id of the space that is translated.' }),
        language: TranslationLanguage.openapi({ description: 'Language of the source space.' }),
      })
      .openapi({ description: 'The content to translate.' }),
    language: TranslationLanguage.openapi({ description: 'Language to translate into.' }),
    instructions: Document.openapi({ description: 'Guidance for the translator: tone, glossary, terms to keep; an empty document until some are given.' }),
    result: z
      .object({
        space: z.string().openapi({ description: 'Id of the space holding the translated content.' }),
        revision: z.string().openapi({ description: 'Id of the revision produced by the latest run.' }),
        language: TranslationLanguage.openapi({
          description: 'Language the result space\'s content was translated into: the translation\'s `language`, which runs translate into (it cannot change).',
        }),
      })
      .optional()
      .openapi(conditional('Where the translated content is; absent until a first run produced it.')),
    createdAt: DateTime,
    updatedAt: DateTime,
    stats: z
      .object({
        runs: z.number().int().min(0).openapi({ description: 'Number of runs so far.' }),
        totalWords: z.number().int().min(0).openapi({ description: 'Words translated across all runs.' }),
        totalPages: z.number().int().min(0).openapi({ description: 'Pages translated across all runs.' }),
        totalDuration: z.number().int().min(0).openapi({ description: 'Time spent across all runs, in whole seconds.' }),
        latestRunDuration: z.number().int().min(0).openapi({ description: 'Duration of the latest run, in whole seconds (0 before a first run finished).' }),
        latestPages: z.number().int().min(0).openapi({ description: 'Pages translated by the latest run (0 before a first run finished).' }),
        latestWords: z.number().int().min(0).openapi({ description: 'Words translated by the latest run (0 before a first run finished).' }),
      })
      .openapi({ description: 'Usage figures; durations in whole seconds, as GitBook counts them.' }),
    latestRun: TranslationRun.openapi(conditional('How the latest run went; absent until a first run ended.')).optional(),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
    urls: z.object({ location: z.url() }),
  })
  .openapi('Translation', {
    description: 'A translation of a space into another language, kept up to date by runs.',
    example: translationExample,
  });

const TranslationIdParams = OrganizationIdParams.extend({
  translationId: z.string().min(1).max(128).openapi({ description: 'The id of the translation.', example: translationId }),
});

const translationResponse = (description: string) => ({ description, schema: Translation, example: translationExample });

export const translationOperations = operations({
  listTranslations: {
    method: 'get',
    path: '/orgs/{organizationId}/translations',
    tag: 'translations',
    summary: 'List the translations of an organization',
    description: 'Lists the translations of an organization, most recently created first.',
    params: OrganizationIdParams,
    query: z.object(paginationQuery),
    responses: {
      200: {
        description: 'A page of translations.',
        schema: listOf('TranslationList', Translation),
        example: listExample([translationExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  createTranslation: {
    method: 'post',
    path: '/orgs/{organizationId}/translations',
    tag: 'translations',
    summary: 'Create a translation',
    description:
      'Sets up the translation of a space of the organization into `language`, with optional instructions for the ' +
      'translator. The translation starts `pending`: nothing is translated until it is run (`runTranslation`). ' +
      ' Invalid input, such as a target language equal to the source language, is refused (400); ' +
      'a source space the organization does not have is not found (404).',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        source: z
          .strictObject({
            space: z.string().min(1).max(128).openapi({ description: 'Id of the space to translate.' }),
            language: TranslationLanguage.openapi({ description: 'Language of the source space.' }),
          })
          .openapi({ description: 'The content to translate.' }),
        language: TranslationLanguage.openapi({ description: 'Language to translate into.' }),
        instructions: Document.openapi({ description: 'Guidance for the translator.' }).optional(),
      })
      .openapi('CreateTranslation'),
    bodyExample: { source: { space: ex.spaceId, language: 'en' }, language: 'fr', instructions: documentExample },
    responses: {
      201: {
        ...translationResponse('The created translation.'),
        headers: { Location: { description: 'URL of the created translation.', example: translationExample.urls.location } },
      },
    },
    errors: [403, 404],
    access: access.organization('create'),
    statements: 3,
  },
  getTranslation: {
    method: 'get',
    path: '/orgs/{organizationId}/translations/{translationId}',
    tag: 'translations',
    summary: 'Get a translation',
    description: 'Returns a translation of the organization, with its status and figures. An unknown id is not found (404).',
    params: TranslationIdParams,
    responses: { 200: translationResponse('The translation.') },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  updateTranslation: {
    method: 'put',
    path: '/orgs/{organizationId}/translations/{translationId}',
    tag: 'translations',
    summary: 'Update the instructions of a translation',
    description:
      'Replaces the instructions of a translation; they apply from the next run on. ' +
      'Invalid input is refused (400); an unknown translation is not found (404).',
    params: TranslationIdParams,
    body: z
      .strictObject({
        instructions: Document.openapi({ description: 'Guidance for the translator.' }),
      })
      .openapi('UpdateTranslation'),
    bodyExample: { instructions: documentExample },
    responses: { 200: translationResponse('The updated translation.') },
    errors: [403, 404],
    access: access.organization('create'),
    statements: 2,
  },
  deleteTranslation: {
    method: 'delete',
    path: '/orgs/{organizationId}/translations/{translationId}',
    tag: 'translations',
    summary: 'Delete a translation',
    description:
      'Deletes a translation: no further runs happen; the space holding the translated content is kept. ' +
      ' Succeeds with no content also when the translation did not exist.',
    params: TranslationIdParams,
    responses: { 204: { description: 'The translation no longer exists.' } },
    errors: [403],
    access: access.organization('create'),
    statements: 2,
  },
  runTranslation: {
    method: 'post',
    path: '/orgs/{organizationId}/translations/{translationId}/run',
    tag: 'translations',
    summary: 'Run a translation',
    description:
      'Triggers a run that brings the translated content up to date with the source space; the run happens in the ' +
      'background and the translation is `running` until it is `completed` (or `failed`). Only text is translated (titles, ' +
      'descriptions and the text of pages: code, URLs and Markdown syntax are kept as they are), with the instructions ' +
      'given to translators that take them (`latestRun.instructionsUsed` says whether they were), and only pages changed since the previous run are sent again ' +
      '(`latestRun.skippedPages` counts the others). When the server has no translator set up, the run copies the text ' +
      'and says so (`latestRun.provider` is `copy`, `latestRun.translated` false). A translator that fails or does not ' +
      'answer in time fails the run (the translation\'s `status` and `latestRun.status` are `failed`, with its `error`) ' +
      'and leaves the result space as it was. ' +
      'An unknown translation is not found (404).',
    params: TranslationIdParams,
    responses: { 204: { description: 'A run is triggered.' } },
    errors: [403, 404],
    access: access.organization('create'),
    statements: 3,
  },
});
