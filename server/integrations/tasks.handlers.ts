// The integration tasks operation: queueIntegrationTask (tasks.store.ts).
import type { integrationTaskOperations } from '../../contract/integration-tasks.js';
import type { AppHandlers } from '../handler-types.js';
import { queueTask } from './tasks.store.js';

export const integrationTaskHandlers = {
  async queueIntegrationTask({ params, body }, ctx) {
    await queueTask(ctx, params.integrationName, body);
    return { status: 204 };
  },
} satisfies Partial<Pick<AppHandlers, keyof typeof integrationTaskOperations>>;
