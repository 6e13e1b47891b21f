// API shapes of conversations, issues and clusters, mapped explicitly from rows.
import type { components } from '../../generated/types.js';
import type { conversationIssues, conversations, issueClusters } from '../db/schema/index.js';
import type { Urls } from '../urls.js';

export type Conversation = components['schemas']['Conversation'];
export type IssuesCluster = components['schemas']['IssuesCluster'];
export type ConversationRow = typeof conversations.$inferSelect;
export type IssueRow = typeof conversationIssues.$inferSelect;
export type ClusterRow = typeof issueClusters.$inferSelect;

/** A conversation's summary form. */
export function toConversation(row: ConversationRow, urls: Urls): Conversation {
  return {
    object: 'conversation',
    id: row.id,
    ...(row.subject !== null && { subject: row.subject }),
    createdAt: row.createdAt.toISOString(),
    ...(row.processedAt !== null && { processedAt: row.processedAt.toISOString() }),
    source: row.source,
    urls: {
      location: urls.api(`/orgs/${row.organizationId}/conversations/${encodeURIComponent(row.id)}`),
      ...(row.url !== null && { source: row.url }),
    },
  };
}

/** A conversation with its messages and metadata. */
export function toConversationDetail(row: ConversationRow, urls: Urls): components['schemas']['ConversationDetail'] {
  return {
    conversation: toConversation(row, urls),
    parts: row.parts,
    metadata: {
      ...(row.url !== null && { url: row.url }),
      ...(row.attributes !== null && { attributes: row.attributes }),
      ...(row.occurredAt !== null && { createdAt: row.occurredAt.toISOString() }),
    },
  };
}

/** An issue with the conversation it was found in. */
export function toIssueDetail(issue: IssueRow, conversation: ConversationRow, urls: Urls): components['schemas']['ConversationIssueDetail'] {
  return {
    issue: {
      object: 'conversation-issue',
      id: issue.id,
      title: issue.title,
      summary: issue.summary,
      createdAt: issue.createdAt.toISOString(),
      ingestedAt: issue.ingestedAt.toISOString(),
      conversation: issue.conversationId,
      ...(issue.clusterId !== null && { cluster: issue.clusterId }),
      ...(issue.extractedBy !== null && {
        extraction: { method: issue.extractedBy, ...(issue.extractedBy === 'heuristic' && issue.heuristicReason !== null && { heuristicReason: issue.heuristicReason }) },
      }),
      urls: { location: urls.api(`/orgs/${issue.organizationId}/conversations-issues/${issue.id}`) },
    },
    conversation: toConversation(conversation, urls),
  };
}

export interface ClusterFigures {
  weeklyPulse: number[];
  sources: Record<string, number>;
  issues: number;
  conversations: number;
  /** The change requests created for the cluster (its tasks), counted by their status. */
  tasks: Partial<Record<'draft' | 'open' | 'merged' | 'archived', number>>;
}

/** A cluster with its figures (computed for a whole page at once by the store). */
export function toCluster(row: ClusterRow, figures: ClusterFigures, urls: Urls): IssuesCluster {
  return {
    object: 'issues-cluster',
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.icon !== null && { icon: row.icon }),
    ...(row.summary !== null && { summary: row.summary }),
    weeklyPulse: figures.weeklyPulse,
    sources: figures.sources,
    // Its tasks are the change requests created with `conversationsIssuesCluster` set to it: a draft is in the
    // backlog, an open one started, a merged one completed, an archived one cancelled.
    stats: {
      issues: figures.issues,
      conversations: figures.conversations,
      tasksTotal: Object.values(figures.tasks).reduce((n, c) => n + c, 0),
      tasksBacklog: figures.tasks.draft ?? 0,
      tasksStarted: figures.tasks.open ?? 0,
      tasksCompleted: figures.tasks.merged ?? 0,
      tasksCancelled: figures.tasks.archived ?? 0,
    },
    urls: {
      location: urls.api(`/orgs/${row.organizationId}/conversations-clusters/${row.id}`),
      app: urls.app(`/o/${row.organizationId}/insights/clusters/${row.id}`),
    },
  };
}
