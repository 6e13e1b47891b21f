// Conversations: ingestion (idempotent on the caller's id), listing and reading, and the issues and
// clusters derived from them by the background job (cluster.job.ts).
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { conversationOperations } from '../../contract/conversations.js';
import type { OrganizationGrant } from '../auth/access.js';
import { rowsOf } from '../db/attached-select.js';
import type { Ctx } from '../context.js';
import { changeRequests, conversationIssues, conversations, issueClusters } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { enqueueJob } from '../jobs/queue.js';
import { clusterConversationsJob } from './cluster.job.js';
import { toCluster, toConversation, toConversationDetail, toIssueDetail, type ClusterFigures, type ClusterRow } from './conversation-view.js';
import { PULSE_WEEKS, WEEK_MS, weekStart } from './pulse-weeks.js';
import { readKeysetPage } from '../db/paginate.js';
import { timePageSelects } from './time-page.js';

type IngestBody = z.output<typeof conversationOperations.ingestConversation.body>;
type ClusterQuery = z.output<typeof conversationOperations.listConversationsIssuesClusters.query>;
type IssueQuery = z.output<typeof conversationOperations.listConversationsIssues.query>;
type ConversationQuery = z.output<typeof conversationOperations.listConversations.query>;


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

/**
 * The selects of one page of the organization's conversations, most recent first, optionally of one source:
 * as listConversations reads them, and listConversations attaches them (attached-reads.ts).
 */
export function conversationsPageSelects(ctx: Ctx, organizationId: string, query: ConversationQuery) {
  const where = and(eq(conversations.organizationId, organizationId), query.source === undefined ? undefined : eq(conversations.source, query.source));
  return timePageSelects(ctx.db, conversations, where, conversations.createdAt, conversations.id, 'desc', query, (r) => ({ time: r.createdAt, id: r.id }));
}

/** The conversations of the organization (conversationsPageSelects), from the grant's statement when they came with it. */
export async function listConversations(ctx: Ctx, grant: OrganizationGrant, query: ConversationQuery) {
  const page = await readKeysetPage(grant.attached, 'conversations', conversationsPageSelects(ctx, grant.organization.id, query));
  return { items: page.rows.map((r) => toConversation(r, ctx.urls)), count: page.count, ...(page.next && { next: page.next }) };
}

/** The select of one conversation of the organization, as getConversation reads it (and attaches it: server/attached-reads.ts). */
export function conversationSelect(ctx: Ctx, organizationId: string, id: string) {
  return ctx.db.select().from(conversations).where(and(eq(conversations.organizationId, organizationId), eq(conversations.id, id)));
}

/** One conversation with its messages; NotFound otherwise. Read from the grant's statement when the operation attached it there. */
export async function getConversation(ctx: Ctx, grant: OrganizationGrant, id: string) {
  const [row] = await rowsOf(grant.attached, 'conversation', conversationSelect(ctx, grant.organization.id, id));
  if (!row) throw new NotFound(`Conversation ${id} not found`);
  return toConversationDetail(row, ctx.urls);
}

/**
 * The selects of one page of the organization's issues, most recent first (`cluster` and `conversation`
 * filter), and of their conversations (those of the page's issues, found in SQL from the page's select):
 * as listIssues reads them, and listConversationsIssues attaches them (attached-reads.ts).
 */
export function issuesPageSelects(ctx: Ctx, organizationId: string, query: IssueQuery) {
  const where = and(
    eq(conversationIssues.organizationId, organizationId),
    query.cluster === undefined ? undefined : eq(conversationIssues.clusterId, query.cluster),
    query.conversation === undefined ? undefined : eq(conversationIssues.conversationId, query.conversation),
  );
  const page = timePageSelects(ctx.db, conversationIssues, where, conversationIssues.createdAt, conversationIssues.id, 'desc', query, (r) => ({ time: r.createdAt, id: r.id }));
  const pageConversations = ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.organizationId, organizationId), inArray(conversations.id, sql`(SELECT p.conversation_id FROM ${page.rows} p)`)));
  return { page, conversations: pageConversations };
}

/** Issues with their conversations (issuesPageSelects), from the grant's statement when they came with it. */
export async function listIssues(ctx: Ctx, grant: OrganizationGrant, query: IssueQuery) {
  const selects = issuesPageSelects(ctx, grant.organization.id, query);
  const page = await readKeysetPage(grant.attached, 'issues', selects.page);
  const convs = page.rows.length === 0 ? [] : await rowsOf(grant.attached, 'issue_conversations', selects.conversations);
  const byId = new Map(convs.map((c) => [c.id, c]));
  return {
    items: page.rows.map((issue) => toIssueDetail(issue, byId.get(issue.conversationId)!, ctx.urls)),
    count: page.count,
    ...(page.next && { next: page.next }),
  };
}

/** The select of one issue of the organization with its conversation, as getIssue reads it (and attaches it: server/attached-reads.ts). */
export function issueSelect(ctx: Ctx, organizationId: string, id: string) {
  return ctx.db
    .select({ issue: conversationIssues, conversation: conversations })
    .from(conversationIssues)
    .innerJoin(conversations, and(eq(conversations.organizationId, conversationIssues.organizationId), eq(conversations.id, conversationIssues.conversationId)))
    .where(and(eq(conversationIssues.organizationId, organizationId), eq(conversationIssues.id, id)));
}

/** One issue with its conversation; NotFound otherwise. Read from the grant's statement when the operation attached it there. */
export async function getIssue(ctx: Ctx, grant: OrganizationGrant, id: string) {
  const [row] = await rowsOf(grant.attached, 'issue', issueSelect(ctx, grant.organization.id, id));
  if (!row) throw new NotFound(`Conversation issue ${id} not found`);
  return toIssueDetail(row.issue, row.conversation, ctx.urls);
}

/**
 * The selects of the figures of the clusters `ids` (a query of their ids): per-source counts, conversations
 * and the weekly pulse from one aggregate over their issues, and the tasks from one over the change
 * requests addressing them. An issue counts in the week its conversation took place (pulse-weeks.ts).
 */
function clusterFiguresSelects(ctx: Ctx, ids: SQL) {
  const thisWeek = weekStart(ctx.now()).getTime();
  const issues = ctx.db
    .select({
      clusterId: sql<string>`x.cluster_id`,
      // Null on the (cluster) grouping set's row: the cluster's totals.
      source: sql<string | null>`x.source`,
      weeksAgo: sql<number | string | null>`x.weeks_ago`,
      issues: sql<number | string>`count(*)`,
      conversations: sql<number | string>`count(DISTINCT x.conversation_id)`,
    })
    .from(sql`(
        SELECT i.cluster_id, c.source, i.conversation_id,
          ceil((${thisWeek}::float8 - extract(epoch FROM c.created_at)::float8 * 1000) / ${WEEK_MS})::int AS weeks_ago
        FROM ${conversationIssues} i
        JOIN ${conversations} c ON c.organization_id = i.organization_id AND c.id = i.conversation_id
        WHERE i.cluster_id IN ${ids}
      ) x`)
    .groupBy(sql`GROUPING SETS ((x.cluster_id, x.source, x.weeks_ago), (x.cluster_id))`);
  const tasks = ctx.db
    .select({ clusterId: changeRequests.conversationsIssuesClusterId, status: changeRequests.status, count: sql<number | string>`count(*)` })
    .from(changeRequests)
    .where(inArray(changeRequests.conversationsIssuesClusterId, ids))
    .groupBy(changeRequests.conversationsIssuesClusterId, changeRequests.status);
  return { issues, tasks };
}

/**
 * The figures of the clusters `clusterIds` from the rows of `selects` (clusterFiguresSelects), from the
 * grant's statement when they came with it (where they may cover one cluster past the page: left out here).
 */
async function clusterFigures(
  attached: Record<string, unknown> | undefined,
  selects: ReturnType<typeof clusterFiguresSelects>,
  clusterIds: string[],
): Promise<Map<string, ClusterFigures>> {
  const figures = new Map<string, ClusterFigures>(
    clusterIds.map((id) => [id, { weeklyPulse: Array(PULSE_WEEKS).fill(0), sources: {}, issues: 0, conversations: 0, tasks: {} }]),
  );
  if (clusterIds.length === 0) return figures;
  const [rows, tasks] = await Promise.all([rowsOf(attached, 'cluster_issues', selects.issues), rowsOf(attached, 'cluster_tasks', selects.tasks)]);
  for (const row of rows) {
    const f = figures.get(row.clusterId);
    if (!f) continue;
    if (row.source === null) {
      // The (cluster) grouping set: the totals.
      f.issues = Number(row.issues);
      f.conversations = Number(row.conversations);
      continue;
    }
    f.sources[row.source] = (f.sources[row.source] ?? 0) + Number(row.issues);
    const weeksAgo = Number(row.weeksAgo);
    if (weeksAgo >= 0 && weeksAgo < PULSE_WEEKS) f.weeklyPulse[PULSE_WEEKS - 1 - weeksAgo] += Number(row.issues);
  }
  for (const task of tasks) {
    const f = figures.get(task.clusterId!);
    if (f) f.tasks[task.status as keyof ClusterFigures['tasks']] = Number(task.count);
  }
  return figures;
}

/**
 * A cluster is resolved once the change requests created for it (its tasks) are merged: at least one is
 * merged and none is still a draft or open. An archived change request is a task given up, which neither
 * resolves a cluster nor keeps it open. Every other cluster is open, those without tasks included.
 */
const resolved = sql`(EXISTS (SELECT 1 FROM ${changeRequests} cr WHERE cr.conversations_issues_cluster_id = ${issueClusters.id} AND cr.status = 'merged')
  AND NOT EXISTS (SELECT 1 FROM ${changeRequests} cr WHERE cr.conversations_issues_cluster_id = ${issueClusters.id} AND cr.status IN ('draft', 'open')))`;

/**
 * The selects of one page of the organization's clusters, ordered as asked, and of their total, and of the
 * figures of the clusters of the page: as listClusters reads them, and listConversationsIssuesClusters
 * attaches them (attached-reads.ts).
 */
export function clustersPageSelects(ctx: Ctx, organizationId: string, query: ClusterQuery) {
  const byStatus: SQL | undefined = query.status === 'resolved' ? resolved : query.status === 'open' ? sql`NOT ${resolved}` : undefined;
  const where = and(eq(issueClusters.organizationId, organizationId), byStatus);
  const time = query.orderBy === 'createdAt' ? issueClusters.createdAt : issueClusters.updatedAt;
  const read = (r: ClusterRow) => ({ time: query.orderBy === 'createdAt' ? r.createdAt : r.updatedAt, id: r.id });
  const page = timePageSelects(ctx.db, issueClusters, where, time, issueClusters.id, query.order, query, read);
  // The clusters of the page, and the one past it that tells whether a next page follows.
  const ids = sql`(SELECT p.id FROM (${page.rows}) p)`;
  return { page, figures: clusterFiguresSelects(ctx, ids) };
}

/** The clusters of the organization, ordered as asked, each with its figures (clustersPageSelects); from the grant's statement when they came with it. */
export async function listClusters(ctx: Ctx, grant: OrganizationGrant, query: ClusterQuery) {
  const selects = clustersPageSelects(ctx, grant.organization.id, query);
  const page = await readKeysetPage(grant.attached, 'clusters', selects.page);
  const figures = await clusterFigures(grant.attached, selects.figures, page.rows.map((r) => r.id));
  return {
    items: page.rows.map((r) => toCluster(r, figures.get(r.id)!, ctx.urls)),
    count: page.count,
    ...(page.next && { next: page.next }),
  };
}
