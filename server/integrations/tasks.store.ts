// Integration tasks (queueIntegrationTask): a `task` event the integration queues for its own script, recorded
// and delivered like every event (events.store.ts, delivery.job.ts: the job runner, at most 3 attempts, each
// in the trace), after `schedule` seconds. The public API has the integration itself queue them (its
// `context.integration.queueTask`); here a token of one of its installations stands for it, and the task is
// then delivered with that installation's environment and token, so a task can queue the next one (a Git
// provider importing spaces page by page). Admins of the owning organization may queue one as well, as they
// may act for the integration elsewhere (createIntegrationInstallationToken).
import { and, eq, sql } from 'drizzle-orm';
import { MAX_PENDING_TASKS, MAX_TASK_BYTES } from '../../contract/integration-tasks.js';
import type { Ctx } from '../context.js';
import { integrationEvents } from '../db/schema/index.js';
import { ApiError, BadRequest, NotFound } from '../errors.js';
import { administeredIntegration, readIntegration } from './integration-access.js';
import { recordEvent } from './events.store.js';

/** What a caller refused for too many pending tasks is told to wait: about a delivery's backoff. */
const RETRY_PENDING_SECONDS = 10;

export interface TaskInput {
  task: Record<string, unknown>;
  schedule?: number;
}

/**
 * The integration the caller may queue a task for: the integration's own token (about the installation it was
 * handed out with, if any), its own installation's token, or an admin of its owner.
 */
async function taskQueuer(ctx: Ctx, name: string) {
  const installation = ctx.caller.installation;
  const integration = ctx.caller.integration;
  if (integration) {
    // Another integration's token: not found (integration-caller.ts answers so before the handler already).
    if (integration.name !== name) throw new NotFound(`Integration ${name} not found`);
    const grant = await administeredIntegration(ctx, name);
    return { integration: grant.row, installationId: integration.installationId, organizationId: grant.row.organizationId };
  }
  if (!installation) {
    const grant = await administeredIntegration(ctx, name);
    return { integration: grant.row, installationId: undefined, organizationId: grant.row.organizationId };
  }
  // Another integration's token finds nothing here, as its other requests outside its integration.
  const grant = installation.integrationName === name ? await readIntegration(ctx, name) : undefined;
  if (!grant) throw new NotFound(`Integration ${name} not found`);
  return { integration: grant.row, installationId: installation.id, organizationId: installation.organizationId };
}

/** Queues a `task` event; BadRequest for a payload too large, 429 past the integration's pending tasks. */
export async function queueTask(ctx: Ctx, name: string, input: TaskInput): Promise<void> {
  const size = Buffer.byteLength(JSON.stringify(input.task));
  if (size > MAX_TASK_BYTES) throw new BadRequest(`body.task: at most ${MAX_TASK_BYTES} bytes of JSON (got ${size})`);
  const queuer = await taskQueuer(ctx, name);
  await ctx.transaction(async (tx) => {
    // Counted on the partial index of pending tasks; the integration's row lock orders racing queuers.
    await readIntegration(tx, name, true);
    const [{ pending }] = await tx.db
      .select({ pending: sql<number>`count(*)::int` })
      .from(integrationEvents)
      .where(and(eq(integrationEvents.integrationName, name), eq(integrationEvents.status, 'pending'), sql`${integrationEvents.payload}->>'type' = 'task'`));
    if (pending >= MAX_PENDING_TASKS) {
      throw new ApiError(429, `The integration ${name} has ${pending} tasks waiting to run, the most allowed; queue more once they have run`, {
        'Retry-After': String(RETRY_PENDING_SECONDS),
      });
    }
    const now = tx.now();
    await recordEvent(tx.db, now, {
      integrationName: queuer.integration.name,
      type: 'task',
      installationId: queuer.installationId,
      organizationId: queuer.organizationId,
      fields: { task: input.task },
      runAt: new Date(now.getTime() + Math.round((input.schedule ?? 0) * 1000)),
    });
  });
}
