// Conversations ingested into an organization, the issues derived from them, and the clusters of similar issues.
import { sql } from 'drizzle-orm';
import { foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { organizations } from './core.js';

export const conversations = pgTable(
  'conversations',
  {
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // Chosen by the caller at ingestion: unique in the organization only.
    id: text('id').notNull(),
    source: text('source').notNull(),
    subject: text('subject'),
    url: text('url'),
    attributes: jsonb('attributes').$type<Record<string, string>>(),
    // metadata.createdAt as given, if any; created_at is it or else the ingestion time.
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }),
    parts: jsonb('parts').$type<{ type: 'message'; role: 'user'; body: string }[]>().notNull(),
    createdAt: createdAt(),
    ingestedAt: timestamp('ingested_at', { withTimezone: true, mode: 'date' }).notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('conversations_recent_idx').on(t.organizationId, t.createdAt, t.id),
    index('conversations_source_idx').on(t.organizationId, t.source, t.createdAt, t.id),
    index('conversations_unprocessed_idx').on(t.organizationId).where(sqlIsNull('processed_at')),
  ],
);

export const issueClusters = pgTable(
  'issue_clusters',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    summary: text('summary'),
    icon: text('icon'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('issue_clusters_updated_idx').on(t.organizationId, t.updatedAt, t.id), index('issue_clusters_created_idx').on(t.organizationId, t.createdAt, t.id)],
);

export const conversationIssues = pgTable(
  'conversation_issues',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull(),
    conversationId: text('conversation_id').notNull(),
    clusterId: text('cluster_id').references(() => issueClusters.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    summary: text('summary').notNull(),
    createdAt: createdAt(),
    ingestedAt: timestamp('ingested_at', { withTimezone: true, mode: 'date' }).notNull(),
    // How the issue was found (`model` or `heuristic`) and, for the heuristic, why no model was asked
    // (issue-extraction.ts HeuristicReason); null for issues found before this was recorded.
    extractedBy: text('extracted_by').$type<'model' | 'heuristic'>(),
    heuristicReason: text('heuristic_reason').$type<'ai-disabled' | 'no-model-configured' | 'model-found-none'>(),
  },
  (t) => [
    // Re-ingesting a conversation replaces its issues; deleting the organization deletes them with it.
    foreignKey({ columns: [t.organizationId, t.conversationId], foreignColumns: [conversations.organizationId, conversations.id] }).onDelete('cascade'),
    index('conversation_issues_recent_idx').on(t.organizationId, t.createdAt, t.id),
    index('conversation_issues_conversation_idx').on(t.organizationId, t.conversationId),
    index('conversation_issues_cluster_idx').on(t.clusterId, t.createdAt),
  ],
);

function sqlIsNull(column: string) {
  return sql.raw(`${column} IS NULL`);
}
