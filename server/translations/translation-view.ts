// The API form of a translation, mapped explicitly from its row.
import { upgradeDocument } from '../content/document-upgrade.js';
import type { Document } from '../content/markdown-document.js';
import type { components } from '../../generated/types.js';
import { atLeast, type Role } from '../auth/roles.js';
import type { translations } from '../db/schema/index.js';
import type { Urls } from '../urls.js';

export type Translation = components['schemas']['Translation'];
export type TranslationRow = typeof translations.$inferSelect;

/** A translation as a caller with organization role `role` sees it. */
export function toTranslation(row: TranslationRow, role: Role | null, urls: Urls): Translation {
  return {
    object: 'translation',
    id: row.id,
    status: row.status as Translation['status'],
    source: { space: row.sourceSpaceId, language: row.sourceLanguage as Translation['language'] },
    language: row.language as Translation['language'],
    // No instructions is GitBook's empty document.
    instructions: upgradeDocument((row.instructions ?? { object: 'document', data: {}, nodes: [] }) as Document) as unknown as Translation['instructions'],
    ...(row.resultSpaceId !== null && row.resultRevisionId !== null && { result: { space: row.resultSpaceId, revision: row.resultRevisionId, language: row.language as Translation['language'] } }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    stats: {
      runs: row.runs,
      totalWords: row.totalWords,
      totalPages: row.totalPages,
      // GitBook counts whole seconds; before a first run finished, the latest run translated nothing.
      totalDuration: Math.round(row.totalDuration),
      latestRunDuration: Math.round(row.latestRunDuration ?? 0),
      latestPages: row.latestPages ?? 0,
      latestWords: row.latestWords ?? 0,
    },
    ...(row.latestRun !== null && { latestRun: row.latestRun }),
    permissions: { view: true, edit: atLeast(role, 'create') },
    urls: { location: urls.api(`/orgs/${row.organizationId}/translations/${row.id}`) },
  };
}
