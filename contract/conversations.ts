// Conversation ingestion, and the issues and clusters derived from it.
import { DateTime, listExample, listOf, paginationQuery, trimmedText } from './common.js';
import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { OrganizationIdParams } from './organizations.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

const conversationId = 'cnv_01JD3QH8W5PZ3RC';
const issueId = 'iss_01JD3QJ2Y9KT6SD';
const clusterId = 'icl_01JD3QK4A3NW7VF';
const orgPath = `${ex.baseUrl}/v1/orgs/${ex.orgId}`;

const MAX_ATTRIBUTES = 50;

// --- Conversations -------------------------------------------------------------------------------

export const conversationExample = {
  object: 'conversation' as const,
  id: conversationId,
  subject: 'Cannot find where to rotate an API token',
  createdAt: ex.createdAt,
  processedAt: '2026-03-14T09:31:12.000Z',
  source: 'intercom',
  urls: {
    location: `${orgPath}/conversations/${conversationId}`,
    source: 'https://support.acme.example.com/conversations/48213',
  },
};

export const Conversation = z
  .object({
    object: z.literal('conversation'),
    id: z.string().openapi({ description: 'The identifier given when the conversation was ingested.' }),
    subject: z.string().optional(),
    createdAt: DateTime.openapi({ description: 'When the conversation took place (`metadata.createdAt`), else when it was ingested.' }),
    processedAt: DateTime.openapi(conditional('When issues were extracted from it; absent until then.')).optional(),
    source: z.string().openapi({
      description: 'Where the conversation comes from: the name of the integration that ingested it, or `api` when ingested directly.',
    }),
    urls: z.object({
      location: z.url(),
      source: z.url().openapi({ description: 'The conversation in its source tool (`metadata.url`).' }).optional(),
    }),
  })
  .openapi('Conversation', {
    description: 'A conversation with a user (a support ticket, a chat), ingested to find documentation issues.',
    example: conversationExample,
  });

const ConversationPart = z
  .object({
    type: z.literal('message'),
    role: z.literal('user').openapi({ description: 'Who wrote the message.' }),
    body: z.string().openapi({ description: 'Text of the message.' }),
  })
  .openapi('ConversationPart', { description: 'One message of a conversation.' });

const conversationMetadataExample = {
  url: 'https://support.acme.example.com/conversations/48213',
  attributes: { plan: 'pro', locale: 'en-US' },
  createdAt: ex.createdAt,
};

const conversationPartExample = {
  type: 'message' as const,
  role: 'user' as const,
  body: 'Where do I rotate an API token? The settings page only lets me create new ones.',
};

export const conversationDetailExample = {
  conversation: conversationExample,
  parts: [conversationPartExample],
  metadata: conversationMetadataExample,
};

export const ConversationDetail = z
  .object({
    conversation: Conversation,
    parts: z.array(ConversationPart),
    metadata: z.object({
      url: z.url().openapi({ description: 'The conversation in its source tool.' }).optional(),
      attributes: z.record(z.string(), z.string()).openapi({ description: 'Free-form attributes given at ingestion.' }).optional(),
      createdAt: DateTime.openapi({ description: 'When the conversation took place, as given at ingestion.' }).optional(),
    }),
  })
  .openapi('ConversationDetail', { description: 'A conversation with its messages and metadata.', example: conversationDetailExample });

// --- Issues and clusters -----------------------------------------------------------------------------

export const conversationIssueExample = {
  object: 'conversation-issue' as const,
  id: issueId,
  title: 'Token rotation is not documented',
  summary: 'The user could not find how to rotate an API token; the docs only explain how to create one.',
  createdAt: '2026-03-14T09:31:12.000Z',
  ingestedAt: ex.createdAt,
  conversation: conversationId,
  cluster: clusterId,
  extraction: { method: 'heuristic' as const, heuristicReason: 'ai-disabled' as const },
  urls: { location: `${orgPath}/conversations-issues/${issueId}` },
};

export const ConversationIssue = z
  .object({
    object: z.literal('conversation-issue'),
    id: z.string(),
    title: z.string(),
    summary: z.string(),
    createdAt: DateTime.openapi({ description: 'When the issue was found in the conversation.' }),
    ingestedAt: DateTime.openapi({ description: 'When the conversation it comes from was ingested.' }),
    conversation: z.string().openapi({ description: 'Id of the conversation it was found in.' }),
    cluster: z.string().openapi(conditional('Id of the issues cluster it belongs to; absent until it is clustered.')).optional(),
    extraction: z
      .object({
        method: z.enum(['model', 'heuristic']).openapi({
          description: 'How the issue was found: `model`, by the AI model the server is configured with; `heuristic`, by the built-in sentence heuristic (no AI).',
        }),
        heuristicReason: z
          .enum(['ai-disabled', 'no-model-configured', 'model-found-none'])
          .openapi({
            description:
              'Why the heuristic was used, with `method: heuristic`: `ai-disabled`, the organization\'s AI features are off ' +
              '(`ai: false`: no conversation of it is sent to a model); `no-model-configured`, the server has no AI model for ' +
              'insights; `model-found-none`, the model found no issue in the conversation and the heuristic\'s first one was kept.',
          })
          .optional(),
      })
      .openapi(conditional('How the issue was found; absent for issues found before this was recorded.'))
      .optional(),
    urls: z.object({ location: z.url() }),
  })
  .openapi('ConversationIssue', {
    description: 'A documentation issue found in a conversation: something the user could not find or understand.',
    example: conversationIssueExample,
  });

export const conversationIssueDetailExample = { issue: conversationIssueExample, conversation: conversationExample };

export const ConversationIssueDetail = z
  .object({ issue: ConversationIssue, conversation: Conversation })
  .openapi('ConversationIssueDetail', {
    description: 'An issue with the conversation it was found in.',
    example: conversationIssueDetailExample,
  });

export const issuesClusterExample = {
  object: 'issues-cluster' as const,
  id: clusterId,
  label: 'API token management',
  createdAt: ex.createdAt,
  updatedAt: ex.updatedAt,
  icon: 'key',
  summary: 'Users cannot find how to rotate, revoke or scope API tokens.',
  weeklyPulse: [0, 1, 0, 2, 3, 1, 4, 2, 5, 3, 6, 4, 7],
  sources: { intercom: 31, api: 7 },
  stats: {
    issues: 38,
    conversations: 35,
    tasksTotal: 4,
    tasksBacklog: 1,
    tasksStarted: 1,
    tasksCompleted: 2,
    tasksCancelled: 0,
  },
  urls: {
    location: `${orgPath}/conversations-clusters/${clusterId}`,
    app: `${ex.appUrl}/o/${ex.orgId}/insights/clusters/${clusterId}`,
  },
};

const count = z.number().int().min(0);

export const IssuesCluster = z
  .object({
    object: z.literal('issues-cluster'),
    id: z.string(),
    label: z.string(),
    createdAt: DateTime,
    updatedAt: DateTime.openapi({ description: 'When an issue was last added to the cluster (its tasks changing does not move it: see `stats`).' }),
    icon: z.string().max(50).openapi({ description: 'Name of an icon standing for the topic.' }).optional(),
    summary: z.string().openapi(conditional('What the issues of the cluster have in common; absent until summarized.')).optional(),
    weeklyPulse: z
      .array(z.number())
      .min(13)
      .max(13)
      .openapi({
        description:
          'Exactly 13 numbers: the issues of each of the 13 calendar weeks (Monday 00:00 UTC to Monday) ending with the current ' +
          'one, oldest week first, each counted in the week its conversation took place (`metadata.createdAt`, else when it was ingested).',
      }),
    sources: z.record(z.string(), z.number()).openapi({ description: 'Number of issues per conversation source.' }),
    stats: z
      .object({
        issues: count,
        conversations: count,
        tasksTotal: count.openapi({ description: 'Change requests created for the cluster (`conversationsIssuesCluster`).' }),
        tasksBacklog: count.openapi({ description: 'Of them, drafts.' }),
        tasksStarted: count.openapi({ description: 'Of them, open.' }),
        tasksCompleted: count.openapi({ description: 'Of them, merged.' }),
        tasksCancelled: count.openapi({ description: 'Of them, archived.' }),
      })
      .openapi({ description: 'Issues and conversations of the cluster, and its tasks: the change requests addressing it.' }),
    urls: z.object({ location: z.url(), app: z.url() }),
  })
  .openapi('IssuesCluster', {
    description: 'A group of similar conversation issues, with its trend and the state of the tasks addressing it.',
    example: issuesClusterExample,
  });

// --- Operations --------------------------------------------------------------------------------------

const ConversationIdParams = OrganizationIdParams.extend({
  conversationId: z
    .string()
    .min(1)
    .max(128)
    .openapi({ description: 'The identifier of the conversation, as given at ingestion.', example: conversationId }),
});

const IssueIdParams = OrganizationIdParams.extend({
  issueId: z.string().min(1).max(128).openapi({ description: 'The id of the conversation issue.', example: issueId }),
});

const idFilter = (description: string) => z.string().min(1).max(128).openapi({ description }).optional();

export const conversationOperations = operations({
  listConversationsIssuesClusters: {
    method: 'get',
    path: '/orgs/{organizationId}/conversations-clusters',
    tag: 'conversations',
    summary: 'List the issues clusters of an organization',
    description:
      'Lists the clusters of similar issues found in the conversations of the organization, sorted by `orderBy` in ' +
      'the `order` direction (by default the most recently updated first). The tasks of a cluster are the change ' +
      'requests created with `conversationsIssuesCluster` set to it. `status` keeps only the clusters addressed ' +
      '(`resolved`: at least one task is merged and none is a draft or open; an archived change request is a task ' +
      'given up) or those still to address (`open`: every other, those without tasks included); without it, all ' +
      'clusters are listed.',
    params: OrganizationIdParams,
    query: z.object({
      ...paginationQuery,
      order: z.enum(['asc', 'desc']).default('desc').openapi({ description: 'Sort direction (default `desc`).' }),
      orderBy: z
        .enum(['updatedAt', 'createdAt'])
        .default('updatedAt')
        .openapi({ description: 'Timestamp to sort by (default `updatedAt`).' }),
      status: z
        .enum(['open', 'resolved'])
        .optional()
        .openapi({ description: '`resolved`: some task merged and none draft or open; `open`: every other cluster.' }),
    }),
    responses: {
      200: {
        description: 'A page of issues clusters.',
        schema: listOf('IssuesClusterList', IssuesCluster),
        example: listExample([issuesClusterExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  listConversations: {
    method: 'get',
    path: '/orgs/{organizationId}/conversations',
    tag: 'conversations',
    summary: 'List the conversations of an organization',
    description:
      'Lists the conversations ingested into the organization, most recent first; `source` keeps only those of one source.',
    params: OrganizationIdParams,
    query: z.object({
      ...paginationQuery,
      source: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .openapi({ description: 'Only conversations of this source (an integration name, or `api`).' }),
    }),
    responses: {
      200: {
        description: 'A page of conversations.',
        schema: listOf('ConversationList', Conversation),
        example: listExample([conversationExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  ingestConversation: {
    method: 'post',
    path: '/orgs/{organizationId}/conversations',
    tag: 'conversations',
    summary: 'Ingest a conversation',
    description:
      'Adds a conversation with users to the organization, to be analysed for documentation issues in the background. ' +
      'The caller chooses `id`; ingesting an `id` again replaces that conversation and its issues. Needs the permission ' +
      'to ingest conversations (the admin role). An unknown organization is not found (404).',
    params: OrganizationIdParams,
    body: z
      .strictObject({
        id: z
          .string()
          .min(1)
          .max(128)
          .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
          .openapi({ description: 'Identifier of the conversation, unique in the organization (e.g. the ticket id in the source tool).' }),
        metadata: z
          .strictObject({
            url: z.url().max(2048).openapi({ description: 'The conversation in its source tool.' }).optional(),
            attributes: z
              .record(z.string().min(1).max(100), z.string().max(1000))
              .refine((a) => Object.keys(a).length <= MAX_ATTRIBUTES, { message: `at most ${MAX_ATTRIBUTES} attributes` })
              .optional()
              .openapi({ description: `Free-form attributes (at most ${MAX_ATTRIBUTES}), e.g. the customer plan.`, maxProperties: MAX_ATTRIBUTES }),
            createdAt: DateTime.openapi({ description: 'When the conversation took place.' }).optional(),
          })
          .optional(),
        subject: trimmedText(1, 500).optional(),
        parts: z
          .array(
            z.strictObject({
              type: z.literal('message'),
              role: z.literal('user'),
              body: z.string().min(1).max(100_000),
            }),
          )
          .min(1)
          .max(500)
          .openapi({ description: 'The messages, in order (1–500).' }),
      })
      .openapi('IngestConversation'),
    bodyExample: {
      id: conversationId,
      metadata: conversationMetadataExample,
      subject: conversationExample.subject,
      parts: [conversationPartExample],
    },
    responses: { 204: { description: 'The conversation is ingested; issues are extracted in the background.' } },
    errors: [403, 404],
    access: access.organization('admin'),
    statements: 4,
  },
  getConversation: {
    method: 'get',
    path: '/orgs/{organizationId}/conversations/{conversationId}',
    tag: 'conversations',
    summary: 'Get a conversation',
    description: 'Returns an ingested conversation with its messages and metadata. An unknown conversation is not found (404).',
    params: ConversationIdParams,
    responses: { 200: { description: 'The conversation.', schema: ConversationDetail, example: conversationDetailExample } },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  listConversationsIssues: {
    method: 'get',
    path: '/orgs/{organizationId}/conversations-issues',
    tag: 'conversations',
    summary: 'List the conversation issues of an organization',
    description:
      'Lists the issues found in the conversations of the organization, most recent first, each with its conversation; ' +
      '`cluster` and `conversation` keep only the issues of that cluster or conversation. A conversation holds one issue ' +
      'per thing the user asks or reports in it.',
    params: OrganizationIdParams,
    query: z.object({
      ...paginationQuery,
      cluster: idFilter('Only issues of this issues cluster.'),
      conversation: idFilter('Only issues found in this conversation.'),
    }),
    responses: {
      200: {
        description: 'A page of issues with their conversations.',
        schema: listOf('ConversationIssueDetailList', ConversationIssueDetail),
        example: listExample([conversationIssueDetailExample]),
      },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
  getConversationsIssue: {
    method: 'get',
    path: '/orgs/{organizationId}/conversations-issues/{issueId}',
    tag: 'conversations',
    summary: 'Get a conversation issue',
    description: 'Returns an issue with the conversation it was found in. An unknown issue is not found (404).',
    params: IssueIdParams,
    responses: {
      200: { description: 'The issue and its conversation.', schema: ConversationIssueDetail, example: conversationIssueDetailExample },
    },
    errors: [404],
    access: access.organization('read'),
    statements: 1,
  },
});
