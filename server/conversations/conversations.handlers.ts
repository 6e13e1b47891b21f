import type { conversationOperations } from '../../contract/conversations.js';
import type { AppHandlers } from '../handler-types.js';
import { getConversation, getIssue, ingestConversation, listClusters, listConversations, listIssues } from './conversations.store.js';

export const conversationHandlers = {
  async listConversationsIssuesClusters({ grant, query }, ctx) {
    return { status: 200, body: await listClusters(ctx, grant, query) };
  },
  async listConversations({ grant, query }, ctx) {
    return { status: 200, body: await listConversations(ctx, grant, query) };
  },
  async ingestConversation({ grant, body }, ctx) {
    await ingestConversation(ctx, grant, body);
    return { status: 204 };
  },
  async getConversation({ grant, params }, ctx) {
    return { status: 200, body: await getConversation(ctx, grant, params.conversationId) };
  },
  async listConversationsIssues({ grant, query }, ctx) {
    return { status: 200, body: await listIssues(ctx, grant, query) };
  },
  async getConversationsIssue({ grant, params }, ctx) {
    return { status: 200, body: await getIssue(ctx, grant, params.issueId) };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof conversationOperations>>;
