// Delivery of integration events, as jobs of the background runner (so an event accepted before a crash
// is delivered after it). In development mode the event is POSTed as JSON to the tunnel; each attempt
// is one job run, logged in the event's trace; after DELIVERY_ATTEMPTS failed attempts (or when the
// worker of the last one died) the event is `failed`. Outside development mode there is nothing to run
// the script in this service: the event is recorded as handled.
import { eq } from 'drizzle-orm';
import { integrationEvents, integrations } from '../db/schema/index.js';
import { outboundRequest, OutboundTimeout } from '../http/outbound.js';
import type { JobContext, JobHandler } from '../jobs/runner.js';
import { appendLog, DELIVER_INTEGRATION_EVENT, logLine, settleEvent } from './events.store.js';

export { DELIVER_INTEGRATION_EVENT };

/** How long one delivery attempt may take before it is abandoned. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The most of a tunnel's answer read (its body is not used; a bigger one fails the attempt). */
const DELIVERY_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Whether development mode sends this event to the tunnel: the owner's events, or all with `all`. */
export function forwardedToTunnel(integration: { organizationId: string; devTunnelUrl: string | null; devAll: boolean }, eventOrganizationId: string | null): boolean {
  return integration.devTunnelUrl !== null && (integration.devAll || eventOrganizationId === integration.organizationId);
}

/** One POST of the payload to the tunnel; throws with a readable reason on a non-2xx answer, a timeout, a refused address or a network error. */
async function post(url: string, eventId: string, payload: unknown, timeoutMs: number): Promise<number> {
  // The tunnel URL is given by the integration's publisher: a user-given URL, held to public addresses.
  const response = await outboundRequest(url, { timeoutMs, maxBytes: DELIVERY_MAX_RESPONSE_BYTES }, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-integration-event-id': eventId },
    body: JSON.stringify(payload),
    redirect: 'manual',
    origin: 'user',
  }).catch((err: unknown) => {
    throw err instanceof OutboundTimeout ? new Error(`no answer within ${timeoutMs} ms`) : err;
  });
  if (response.status < 200 || response.status > 299) throw new Error(`the tunnel answered ${response.status}`);
  return response.status;
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

/** The delivery job handler, with the time one attempt may take (tests shorten it). */
export function createDeliveryHandler({ timeoutMs = DELIVERY_TIMEOUT_MS }: { timeoutMs?: number } = {}): JobHandler {
  return Object.assign((payload: unknown, ctx: JobContext) => deliver(payload, ctx, timeoutMs), {
    // The worker of the last attempt died mid-delivery: the event failed (it would stay `pending`, which
    // the API reports as delivered).
    onExhausted: async (payload: unknown, ctx: JobContext) => {
      const { eventId } = payload as { eventId: string };
      await settleEvent(ctx.db, eventId, 'failed', logLine(ctx.now(), 'error', 'The worker of the last delivery attempt stopped before finishing'));
    },
  });
}

/** Delivers one event (payload `{ eventId }`); safe to repeat: a settled event is left alone. */
async function deliver(payload: unknown, ctx: JobContext, timeoutMs: number): Promise<void> {
  const { eventId } = payload as { eventId: string };
  const [found] = await ctx.db
    .select({ event: integrationEvents, integration: integrations })
    .from(integrationEvents)
    .innerJoin(integrations, eq(integrations.name, integrationEvents.integrationName))
    .where(eq(integrationEvents.id, eventId));
  // Unpublished meanwhile (its events went with it), or delivered by an earlier run.
  if (!found || found.event.status !== 'pending') return;
  const { event, integration } = found;
  if (!forwardedToTunnel(integration, event.organizationId)) {
    await settleEvent(ctx.db, eventId, 'success', logLine(ctx.now(), 'info', 'Not in development mode for this organization: recorded without delivery'));
    return;
  }
  const url = integration.devTunnelUrl!;
  const attempt = ctx.job.attempts;
  try {
    const status = await post(url, eventId, event.payload, timeoutMs);
    await settleEvent(ctx.db, eventId, 'success', logLine(ctx.now(), 'info', `Delivery attempt ${attempt} to ${url}: ${status}`));
  } catch (err) {
    const line = logLine(ctx.now(), 'error', `Delivery attempt ${attempt} to ${url} failed: ${describe(err)}`);
    if (attempt >= ctx.job.maxAttempts) {
      await settleEvent(ctx.db, eventId, 'failed', line);
      return;
    }
    await appendLog(ctx.db, eventId, line);
    // The runner retries the job after its backoff.
    throw err;
  }
}

/** The handler the server registers (server/jobs/registry.ts). */
export const deliverIntegrationEvent = createDeliveryHandler();
