// Integration tasks: work an integration queues for itself (a Git provider importing spaces page by page),
// delivered to its script as `task` events by the job runner (server/integrations/tasks.store.ts).
import { access } from './access.js';
import { exampleIntegrationName, integrationNamePattern } from './integration-schemas.js';
import { operations } from './operation.js';
import { z } from './zod.js';

/** The largest task payload, as JSON. */
export const MAX_TASK_BYTES = 64 * 1024;
/** Tasks of one integration waiting to run (queued, not yet delivered) at most; one more is 429. */
export const MAX_PENDING_TASKS = 1000;
/** The longest a task may be scheduled ahead, in seconds (the public API's bound). */
export const MAX_TASK_SCHEDULE = 86_400;

const QueueIntegrationTask = z
  .strictObject({
    task: z
      .record(z.string(), z.unknown())
      .openapi({ description: `Payload for the integration task, given back as \`task\` of the \`task\` event (at most ${MAX_TASK_BYTES / 1024} KiB of JSON).` }),
    schedule: z
      .number()
      .min(0)
      .max(MAX_TASK_SCHEDULE)
      .optional()
      .openapi({ description: 'Number of seconds to wait before executing the task, defaults to 0.' }),
  })
  .openapi('QueueIntegrationTask');

export const integrationTaskOperations = operations({
  queueIntegrationTask: {
    method: 'post',
    path: '/integrations/{integrationName}/tasks',
    tag: 'integrations',
    summary: 'Queue an integration task',
    description:
      'Queues a `task` event for the integration\'s script, delivered by the background runner once `schedule` ' +
      'seconds have passed, like any event: listed in the integration\'s events, at most 3 attempts, each logged in ' +
      'its trace. Called by the integration itself (`context.integration.queueTask`): with a token of one of its ' +
      'installations (the task is then delivered with that installation\'s environment and token, so it can queue ' +
      'the next one), or by an admin of the organization owning the integration (403 for others). An unknown ' +
      'integration, or one the caller cannot see or another integration\'s token, is not found. A payload over ' +
      `${MAX_TASK_BYTES / 1024} KiB is refused (400 naming \`body.task\`), and so is a task beyond ` +
      `${MAX_PENDING_TASKS} of the integration waiting to run (429).`,
    params: z.object({
      integrationName: z
        .string()
        .min(1)
        .max(128)
        .regex(integrationNamePattern)
        .openapi({ description: 'The name of the integration.', example: exampleIntegrationName }),
    }),
    body: QueueIntegrationTask,
    bodyExample: { task: { type: 'import:spaces', payload: { page: 2 } }, schedule: 30 },
    responses: { 204: { description: 'Integration task created successfully.' } },
    errors: [400, 403, 404, 429],
    access: access.caller(),
    statements: 6,
  },
});
