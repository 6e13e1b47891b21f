// The background step after ingestion: find the issues of each unprocessed conversation of an
// organization (what the user asks or reports: issue-extraction.ts, one or several per conversation) and
// put each in the cluster of the most similar issues (TF-IDF cosine, see similarity.ts), or in a new
// cluster. Issues are found before the transaction (a model may take seconds); the transaction then holds
// an advisory lock of the organization, so two jobs never create the same cluster twice, and skips a
// conversation re-ingested in between (its own job follows).
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { conversationIssues, conversations, issueClusters, organizations } from '../db/schema/index.js';
import { newId } from '../ids.js';
import type { EnqueueInput } from '../jobs/queue.js';
import type { JobHandler } from '../jobs/runner.js';
import { configuredExtractor, heuristicExtractor, type FoundIssue, type HeuristicReason, type IssueExtractor } from './issue-extraction.js';
import { addInto, cosine, inverseFrequencies, normalize, SIMILARITY_THRESHOLD, tfidf, tokens, topTerms, type Vector } from './similarity.js';

export const CLUSTER_CONVERSATIONS = 'cluster-conversations';
// Conversations handled per transaction; the job goes on until none is left. A model answers one
// conversation at a time, so its batches are smaller (each batch's issues are found before its transaction).
const BATCH = { heuristic: 200, openai: 20 };
// The issues the similarity is computed against: the most recent ones of the organization.
const CORPUS_LIMIT = 5000;

/** The job processing the organization's unprocessed conversations. */
export function clusterConversationsJob(organizationId: string): EnqueueInput {
  return { kind: CLUSTER_CONVERSATIONS, payload: { organizationId } };
}

/** The text an issue is compared by: its summary, after the title when the title is not already its beginning. */
export function issueText(issue: { title: string; summary: string }): string {
  return issue.summary.startsWith(issue.title.replace(/…$/, '')) ? issue.summary : `${issue.title} ${issue.summary}`;
}

// Icon names by topic word (stems), first match wins; `message-circle` otherwise.
const ICONS: [RegExp, string][] = [
  [/^(password|login|sign|auth|token|key|sso|saml|credential)/, 'key'],
  [/^(bill|invoice|payment|pay|charg|price|plan|subscript|refund)/, 'credit-card'],
  [/^(api|endpoint|request|rate|limit|webhook|sdk)/, 'code'],
  [/^(search|find|navigat|menu)/, 'search'],
  [/^(error|crash|bug|fail|broken)/, 'bug'],
  [/^(export|import|download|upload|file|pdf)/, 'file'],
  [/^(team|member|invit|permission|role|access)/, 'users'],
];

function iconFor(terms: string[]): string {
  for (const term of terms) for (const [pattern, icon] of ICONS) if (pattern.test(term)) return icon;
  return 'message-circle';
}

interface Member {
  id: string;
  title: string;
  vector: Vector;
}

/** Label, summary and icon of a cluster from its members: the most central issue's title and the heaviest terms. */
function describe(members: Member[], surface: Map<string, string>) {
  const centroid = new Map<string, number>();
  for (const m of members) addInto(centroid, m.vector);
  const unit = normalize(centroid);
  const central = members.reduce((best, m) => (cosine(m.vector, unit) > cosine(best.vector, unit) ? m : best));
  const terms = topTerms(unit, 3);
  const words = terms.map((t) => surface.get(t) ?? t);
  const n = members.length;
  return {
    label: central.title,
    summary: `${n} issue${n === 1 ? '' : 's'} about ${words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? 'this topic')}.`,
    icon: iconFor(terms),
  };
}

/** Processes one batch; returns how many conversations it took (found unprocessed). */
/** How an issue was found, as stored with it: by `extractor`, or by the heuristic for `reason` when it is the heuristic. */
function extractionOf(extractor: IssueExtractor, issue: FoundIssue, heuristicReason: HeuristicReason) {
  if (extractor.kind === 'heuristic') return { extractedBy: 'heuristic' as const, heuristicReason };
  return issue.byHeuristic ? { extractedBy: 'heuristic' as const, heuristicReason: 'model-found-none' as const } : { extractedBy: 'model' as const, heuristicReason: null };
}

async function processBatch(db: Db, extractor: IssueExtractor, organizationId: string, now: Date, heuristicReason: HeuristicReason): Promise<number> {
  const candidates = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.organizationId, organizationId), isNull(conversations.processedAt)))
    .orderBy(conversations.createdAt, conversations.id)
    .limit(BATCH[extractor.kind]);
  if (candidates.length === 0) return 0;
  const found = new Map<string, FoundIssue[]>();
  for (const c of candidates) found.set(c.id, await extractor.extract(c));

  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`conversations:${organizationId}`}))`);
    // Still unprocessed, and not re-ingested since their issues were found.
    const current = await tx
      .select({ id: conversations.id, ingestedAt: conversations.ingestedAt })
      .from(conversations)
      .where(and(eq(conversations.organizationId, organizationId), isNull(conversations.processedAt), inArray(conversations.id, candidates.map((c) => c.id))));
    const unchanged = new Set(current.filter((r) => candidates.find((c) => c.id === r.id)!.ingestedAt.getTime() === r.ingestedAt.getTime()).map((r) => r.id));
    const pending = candidates.filter((c) => unchanged.has(c.id));
    // Taken by another job meanwhile, or re-ingested: the next batch reads them again.
    if (pending.length === 0) return candidates.length;

    // A re-ingested conversation replaces its issues.
    await tx.delete(conversationIssues).where(and(eq(conversationIssues.organizationId, organizationId), inArray(conversationIssues.conversationId, pending.map((c) => c.id))));
    const existing = await tx
      .select({ id: conversationIssues.id, title: conversationIssues.title, summary: conversationIssues.summary, clusterId: conversationIssues.clusterId })
      .from(conversationIssues)
      .where(eq(conversationIssues.organizationId, organizationId))
      .orderBy(sql`${conversationIssues.createdAt} DESC`)
      .limit(CORPUS_LIMIT);
    const fresh = pending.flatMap((c) => found.get(c.id)!.map((issue) => ({ conv: c, id: newId('iss', now.getTime()), ...issue })));

    const surface = new Map<string, string>();
    const tokenize = (text: string) => {
      for (const w of text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []) {
        const [t] = tokens(w);
        if (t && !surface.has(t)) surface.set(t, w);
      }
      return tokens(text);
    };
    const existingTokens = existing.map((i) => tokenize(issueText(i)));
    const freshTokens = fresh.map((i) => tokenize(issueText(i)));
    const idf = inverseFrequencies([...existingTokens, ...freshTokens]);

    // Current clusters, with their members' vectors.
    const members = new Map<string, Member[]>();
    existing.forEach((issue, k) => {
      if (issue.clusterId === null) return;
      const list = members.get(issue.clusterId) ?? [];
      list.push({ id: issue.id, title: issue.title, vector: tfidf(existingTokens[k], idf) });
      members.set(issue.clusterId, list);
    });
    const centroids = new Map<string, Vector>();
    for (const [clusterId, list] of members) {
      const c = new Map<string, number>();
      for (const m of list) addInto(c, m.vector);
      centroids.set(clusterId, normalize(c));
    }

    const touched = new Set<string>();
    const created = new Set<string>();
    const assignments: { issue: (typeof fresh)[number]; clusterId: string }[] = [];
    fresh.forEach((issue, k) => {
      const vector = tfidf(freshTokens[k], idf);
      let best: string | undefined;
      let bestScore = SIMILARITY_THRESHOLD;
      for (const [clusterId, centroid] of centroids) {
        const score = cosine(vector, centroid);
        if (score >= bestScore) [best, bestScore] = [clusterId, score];
      }
      const clusterId = best ?? newId('icl', now.getTime());
      if (!best) created.add(clusterId);
      const list = members.get(clusterId) ?? [];
      list.push({ id: issue.id, title: issue.title, vector });
      members.set(clusterId, list);
      const c = new Map<string, number>();
      for (const m of list) addInto(c, m.vector);
      centroids.set(clusterId, normalize(c));
      touched.add(clusterId);
      assignments.push({ issue, clusterId });
    });

    for (const clusterId of touched) {
      const { label, summary, icon } = describe(members.get(clusterId)!, surface);
      if (created.has(clusterId)) {
        await tx.insert(issueClusters).values({ id: clusterId, organizationId, label, summary, icon, createdAt: now, updatedAt: now });
      } else {
        await tx.update(issueClusters).set({ label, summary, icon, updatedAt: now }).where(eq(issueClusters.id, clusterId));
      }
    }
    await tx.insert(conversationIssues).values(
      assignments.map(({ issue, clusterId }) => ({
        id: issue.id,
        organizationId,
        conversationId: issue.conv.id,
        clusterId,
        title: issue.title,
        summary: issue.summary,
        createdAt: now,
        ingestedAt: issue.conv.ingestedAt,
        ...extractionOf(extractor, issue, heuristicReason),
      })),
    );
    await tx
      .update(conversations)
      .set({ processedAt: now })
      .where(and(eq(conversations.organizationId, organizationId), inArray(conversations.id, pending.map((c) => c.id))));
    // Clusters whose issues all went (re-ingested elsewhere) are dropped.
    await tx.execute(
      sql`DELETE FROM ${issueClusters} WHERE ${issueClusters.organizationId} = ${organizationId}
          AND NOT EXISTS (SELECT 1 FROM ${conversationIssues} WHERE ${conversationIssues.clusterId} = ${issueClusters.id})`,
    );
    return candidates.length;
  });
}

/** The job handler, with the extractor to use (tests pass one on a local server); by default the configured one, read at the first run. */
export function clusterConversationsHandler(extractor?: IssueExtractor): JobHandler {
  let resolved = extractor;
  return async (payload, ctx) => {
    resolved ??= configuredExtractor();
    const { organizationId } = payload as { organizationId: string };
    // An organization whose AI features are off (`ai: false`) never has a conversation sent to a model.
    const [organization] = await ctx.db.select({ ai: organizations.ai }).from(organizations).where(eq(organizations.id, organizationId));
    const aiOff = organization?.ai === false;
    const extractor = aiOff ? heuristicExtractor : resolved;
    // The issues say why no model was asked, when none was.
    const reason: HeuristicReason = aiOff ? 'ai-disabled' : 'no-model-configured';
    let handled = 0;
    for (let n = await processBatch(ctx.db, extractor, organizationId, ctx.now(), reason); n > 0; n = await processBatch(ctx.db, extractor, organizationId, ctx.now(), reason)) handled += n;
    if (handled > 0) ctx.log.info({ organizationId, conversations: handled, extractor: extractor.kind }, 'clustered conversation issues');
  };
}

/** Extracts and clusters the issues of every unprocessed conversation of the organization, with the configured extractor. */
export const clusterConversations: JobHandler = clusterConversationsHandler();
