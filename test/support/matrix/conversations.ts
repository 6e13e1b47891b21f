// Matrix fixtures of conversations: an ingested conversation, and an issue derived from one.
import { pino } from 'pino';
import { clusterConversations, CLUSTER_CONVERSATIONS } from '../../../server/conversations/cluster.job.js';
import { createJobRunner } from '../../../server/jobs/runner.js';
import type { Harness } from '../harness.js';
import type { MatrixFixtures } from './types.js';

/** Runs the queued conversation clustering jobs of the harness database. */
export async function drainConversationJobs(h: Harness): Promise<number> {
  const runner = createJobRunner({ db: h.db, logger: pino({ level: 'silent' }), handlers: { [CLUSTER_CONVERSATIONS]: clusterConversations } });
  return runner.drain();
}

let counter = 0;

const conversationBody = () => ({
  id: `matrix-${++counter}`,
  subject: 'Cannot reset my password',
  parts: [{ type: 'message', role: 'user', body: 'The password reset email never arrives.' }],
});

export const conversationFixtures: MatrixFixtures = {
  params: {
    conversationId: async ({ admin }) => {
      const body = conversationBody();
      await admin.api.post(`/orgs/${admin.organizationId}/conversations`, body);
      return body.id;
    },
    issueId: async ({ admin, h }) => {
      const body = conversationBody();
      await admin.api.post(`/orgs/${admin.organizationId}/conversations`, body);
      await drainConversationJobs(h);
      return (await admin.api.get(`/orgs/${admin.organizationId}/conversations-issues`, { conversation: body.id })).body.items[0].issue.id;
    },
  },
  // Two conversations about the same problem, clustered by the job: a cluster of their issues.
  lists: {
    listConversationsIssuesClusters: async ({ admin, h }, path) => {
      for (let i = 0; i < 2; i++) await admin.api.post(`/orgs/${path.organizationId}/conversations`, conversationBody());
      await drainConversationJobs(h);
    },
  },
  bodies: {
    ingestConversation: () => conversationBody(),
  },
};
