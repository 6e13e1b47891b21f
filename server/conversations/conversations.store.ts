// Conversations: ingestion (idempotent on the caller's id), listing and reading, and the issues and
// clusters derived from them by the background job (cluster.job.ts).
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { conversationOperations } from '../../contract/conversations.js';
import type { OrganizationGrant } from '../auth/access.js';
import type { Ctx } from '../context.js';
import { queryRows } from '../db/client.js';
import { conversationIssues, conversations, issueClusters } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { enqueueJob } from '../jobs/queue.js';
import { clusterConversationsJob } from './cluster.job.js';
import { toCluster, toConversation, toConversationDetail, toIssueDetail, type ClusterFigures, type ClusterRow } from './conversation-view.js';
import { timePage } from './time-page.js';

type IngestBody = z.output<typeof conversationOperations.ingestConversation.body>;
type ClusterQuery = z.output<typeof conversationOperations.listConversationsIssuesClusters.query>;
type IssueQuery = z.output<typeof conversationOperations.listConversationsIssues.query>;
type ConversationQuery = z.output<typeof conversationOperations.listConversations.query>;

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const PULSE_WEEKS = 13;

/**
 * Stores the conversation (replacing one with the same id, and its issues) and queues the extraction of
 * its issues. One upsert statement, so concurrent ingestions of the same id cannot both insert.
 */
export async function ingestConversation(ctx: Ctx, grant: OrganizationGrant, body: IngestBody): Promise<void> {
  await ctx.transaction(async (tx) => {
    const now = tx.now();
    const occurredAt = body.metadata?.createdAt ? new Date(body.metadata.createdAt) : null;
    const columns = {
      source: 'api',
      subject: body.subject ?? null,
      url: body.metadata?.url ?? null,
      attributes: body.metadata?.attributes ?? null,
      occurredAt,
      parts: body.parts,
      createdAt: occurredAt ?? now,
      ingestedAt: now,
      processedAt: null,
    };
    await tx.db
      .insert(conversations)
      .values({ organizationId: grant.organization.id, id: body.id, ...columns })
      .onConflictDoUpdate({ target: [conversations.organizationId, conversations.id], set: columns });
    await tx.db
      .delete(conversationIssues)
      .where(and(eq(conversationIssues.organizationId, grant.organization.id), eq(conversationIssues.conversationId, body.id)));
    await enqueueJob(tx.db, clusterConversationsJob(grant.organization.id), now);
  });
}

/** The conversations of the organization, most recent first, optionally of one source. */
export async function listConversations(ctx: Ctx, grant: OrganizationGrant, query: ConversationQuery) {
  const where = and(eq(conversations.organizationId, grant.organization.id), query.source === undefined ? undefined : eq(conversations.source, query.source));
  const page = await timePage(ctx.db, conversations, where, conversations.createdAt, conversations.id, 'desc', query, (r) => ({ time: r.createdAt, id: r.id }));
  return { items: page.rows.map((r) => toConversation(r, ctx.urls)), count: page.count, ...(page.next && { next: page.next }) };
}

/** One conversation with its messages; NotFound otherwise. */
export async function getConversation(ctx: Ctx, grant: OrganizationGrant, id: string) {
  const [row] = await ctx.db.select().from(conversations).where(and(eq(conversations.organizationId, grant.organization.id), eq(conversations.id, id)));
  if (!row) throw new NotFound(`Conversation ${id} not found`);
  return toConversationDetail(row, ctx.urls);
}

/** Issues with their conversations, most recent first; `cluster` and `conversation` filter. */
export async function listIssues(ctx: Ctx, grant: OrganizationGrant, query: IssueQuery) {
  const where = and(
    eq(conversationIssues.organizationId, grant.organization.id),
    query.cluster === undefined ? undefined : eq(conversationIssues.clusterId, query.cluster),
    query.conversation === undefined ? undefined : eq(conversationIssues.conversationId, query.conversation),
  );
  const page = await timePage(ctx.db, conversationIssues, where, conversationIssues.createdAt, conversationIssues.id, 'desc', query, (r) => ({ time: r.createdAt, id: r.id }));
  // The page's conversations in one query.
  const ids = [...new Set(page.rows.map((r) => r.conversationId))];
  const convs = ids.length === 0 ? [] : await ctx.db.select().from(conversations).where(and(eq(conversations.organizationId, grant.organization.id), inArray(conversations.id, ids)));
  const byId = new Map(convs.map((c) => [c.id, c]));
  return {
    items: page.rows.map((issue) => toIssueDetail(issue, byId.get(issue.conversationId)!, ctx.urls)),
    count: page.count,
    ...(page.next && { next: page.next }),
  };
}

/** One issue with its conversation; NotFound otherwise. */
export async function getIssue(ctx: Ctx, grant: OrganizationGrant, id: string) {
  const [row] = await ctx.db
    .select({ issue: conversationIssues, conversation: conversations })
    .from(conversationIssues)
    .innerJoin(conversations, and(eq(conversations.organizationId, conversationIssues.organizationId), eq(conversations.id, conversationIssues.conversationId)))
    .where(and(eq(conversationIssues.organizationId, grant.organization.id), eq(conversationIssues.id, id)));
  if (!row) throw new NotFound(`Conversation issue ${id} not found`);
  return toIssueDetail(row.issue, row.conversation, ctx.urls);
}

/** The figures of the given clusters, from one aggregate query: per-source counts, conversations, and weekly counts. */
async function clusterFigures(ctx: Ctx, clusterIds: string[]): Promise<Map<string, ClusterFigures>> {
  const figures = new Map<string, ClusterFigures>(
    clusterIds.map((id) => [id, { weeklyPulse: Array(PULSE_WEEKS).fill(0), sources: {}, issues: 0, conversations: 0 }]),
  );
  if (clusterIds.length === 0) return figures;
  const now = ctx.now();
  // Week 12 (the last) is the 7 days ending now; week 0 began 13 weeks ago.
  const rows = await queryRows<{ cluster_id: string; source: string; weeks_ago: number | string; issues: number | string; conversations: number | string }>(
    ctx.db,
    sql`SELECT cluster_id, source, weeks_ago, count(*) AS issues, count(DISTINCT conversation_id) AS conversations
        FROM (
          SELECT i.cluster_id, c.source, i.conversation_id,
            floor(extract(epoch FROM (${now.toISOString()}::timestamptz - i.created_at)) * 1000 / ${WEEK_MS})::int AS weeks_ago
          FROM ${conversationIssues} i
          JOIN ${conversations} c ON c.organization_id = i.organization_id AND c.id = i.conversation_id
          WHERE i.cluster_id IN (${sql.join(clusterIds.map((id) => sql`${id}`), sql`, `)})
        ) x
        GROUP BY GROUPING SETS ((cluster_id, source, weeks_ago), (cluster_id))`,
  );
  for (const row of rows) {
    const f = figures.get(row.cluster_id)!;
    if (row.source === null) {
      // The (cluster) grouping set: the totals.
      f.issues = Number(row.issues);
      f.conversations = Number(row.conversations);
      continue;
    }
    f.sources[row.source] = (f.sources[row.source] ?? 0) + Number(row.issues);
    const weeksAgo = Number(row.weeks_ago);
    if (weeksAgo >= 0 && weeksAgo < PULSE_WEEKS) f.weeklyPulse[PULSE_WEEKS - 1 - weeksAgo] += Number(row.issues);
  }
  return figures;
}

/** The clusters of the organization, ordered as asked, each with its figures. */
export async function listClusters(ctx: Ctx, grant: OrganizationGrant, query: ClusterQuery) {
  // No tasks are stored: every cluster is open, none resolved.
  const resolvedOnly: SQL | undefined = query.status === 'resolved' ? sql`false` : undefined;
  const where = and(eq(issueClusters.organizationId, grant.organization.id), resolvedOnly);
  const time = query.orderBy === 'createdAt' ? issueClusters.createdAt : issueClusters.updatedAt;
  const read = (r: ClusterRow) => ({ time: query.orderBy === 'createdAt' ? r.createdAt : r.updatedAt, id: r.id });
  const page = await timePage(ctx.db, issueClusters, where, time, issueClusters.id, query.order, query, read);
  const figures = await clusterFigures(ctx, page.rows.map((r) => r.id));
  return {
    items: page.rows.map((r) => toCluster(r, figures.get(r.id)!, ctx.urls)),
    count: page.count,
    ...(page.next && { next: page.next }),
  };
}
