// OpenAPI specifications of an organization and their processed versions.
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf, orderKey, updatedAt } from './columns.js';
import { organizations } from './core.js';

export const openAPIProcessingStateValues = ['pending', 'progress', 'complete'] as const;
export const openAPIErrorCodeValues = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export const openAPIVisibilityValues = ['private', 'public'] as const;

export const openAPISpecs = pgTable(
  'openapi_specs',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    // Exactly one of the two: where to fetch the document, or the document itself.
    sourceUrl: text('source_url'),
    sourceText: text('source_text'),
    processingState: text('processing_state').notNull(),
    visibility: text('visibility').notNull(),
    lastVersionId: text('last_version_id'),
    lastProcessedAt: timestamp('last_processed_at', { withTimezone: true, mode: 'date' }),
    lastProcessErrorCode: text('last_process_error_code'),
    lastProcessedErrors: jsonb('last_processed_errors').$type<{ message: string; code?: string }[]>(),
    // Bumped on every new source: a processing job only stores its outcome for the source it was given.
    sourceRevision: text('source_revision').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('openapi_specs_org_slug_key').on(t.organizationId, t.slug),
    index('openapi_specs_org_idx').on(t.organizationId, t.id),
    check('openapi_specs_processing_state_check', sql.raw(`processing_state IN (${oneOf(openAPIProcessingStateValues)})`)),
    check('openapi_specs_visibility_check', sql.raw(`visibility IN (${oneOf(openAPIVisibilityValues)})`)),
    check('openapi_specs_error_code_check', sql.raw(`last_process_error_code IN (${oneOf(openAPIErrorCodeValues)})`)),
    check('openapi_specs_source_check', sql`(source_url IS NULL) <> (source_text IS NULL)`),
  ],
);

export const openAPISpecVersions = pgTable(
  'openapi_spec_versions',
  {
    id: text('id').primaryKey(),
    specId: text('spec_id')
      .notNull()
      .references(() => openAPISpecs.id, { onDelete: 'cascade' }),
    // The parsed files, by file path (`{ "openapi.yaml": {...} }`).
    filesystem: jsonb('filesystem').$type<Record<string, unknown>>().notNull(),
    // The URL this version was fetched from (the specification's source may have changed since); null when
    // it was processed from text given to the API.
    sourceUrl: text('source_url'),
    // The id with every character inverted, so an ascending keyset walks the versions newest first.
    newestFirst: orderKey('newest_first').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('openapi_spec_versions_spec_idx').on(t.specId, t.id),
    index('openapi_spec_versions_newest_idx').on(t.specId, t.newestFirst),
  ],
);
