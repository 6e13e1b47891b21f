// Delivery of integration events, as jobs of the background runner (so an event accepted before a crash
// is delivered after it). Each attempt is one job run, logged in the event's trace:
// - in development mode (for the event's organization) the event is POSTed as JSON to the tunnel, signed
//   (see signature.ts);
// - otherwise it is POSTed as JSON to the published script's fetch, in the sandbox (server/runtime/),
//   with the header `X-Integration-Event: <type>`; what the script logs joins the trace.
// A 2xx answer settles the event `success`; an error, a timeout or another status fails the attempt, and
// after DELIVERY_ATTEMPTS failed attempts (or when the worker of the last one died) the event is `failed`.
import { eq } from 'drizzle-orm';
import { integrationEvents, integrations, integrationScripts } from '../db/schema/index.js';
import { outboundRequest, OutboundTimeout } from '../http/outbound.js';
import type { JobContext, JobHandler } from '../jobs/runner.js';
import { scriptServerOrigin } from '../runtime/script-runtime.js';
import { appendLog, DELIVER_INTEGRATION_EVENT, logLine, settleEvent, type LogLine } from './events.store.js';
import { integrationEndpointPath } from './integration-view.js';
import { sandboxRunner, scriptEnv, type ScriptRunner } from './script-invocation.js';
import { signatureHeader, SIGNATURE_HEADER, SIGNING_SECRET_NAME } from './signature.js';

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
async function post(url: string, eventId: string, payload: unknown, timeoutMs: number, signingSecret: string | undefined, now: Date): Promise<number> {
  const body = JSON.stringify(payload);
  // The tunnel URL is given by the integration's publisher: a user-given URL, held to public addresses.
  const response = await outboundRequest(url, { timeoutMs, maxBytes: DELIVERY_MAX_RESPONSE_BYTES }, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-integration-event-id': eventId,
      ...(signingSecret !== undefined && { [SIGNATURE_HEADER]: signatureHeader(signingSecret, body, now) }),
    },
    body,
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

/** The delivery job handler, with the time one attempt may take and what runs scripts (tests change them). */
export function createDeliveryHandler({ timeoutMs = DELIVERY_TIMEOUT_MS, runner = sandboxRunner }: { timeoutMs?: number; runner?: ScriptRunner } = {}): JobHandler {
  return Object.assign((payload: unknown, ctx: JobContext) => deliver(payload, ctx, timeoutMs, runner), {
    // The worker of the last attempt died mid-delivery: the event failed (it would stay `pending`, which
    // the API reports as delivered).
    onExhausted: async (payload: unknown, ctx: JobContext) => {
      const { eventId } = payload as { eventId: string };
      await settleEvent(ctx.db, eventId, 'failed', logLine(ctx.now(), 'error', 'The worker of the last delivery attempt stopped before finishing'));
    },
  });
}

/** Delivers one event (payload `{ eventId }`); safe to repeat: a settled event is left alone. */
async function deliver(payload: unknown, ctx: JobContext, timeoutMs: number, runner: ScriptRunner): Promise<void> {
  const { eventId } = payload as { eventId: string };
  const [found] = await ctx.db
    .select({ event: integrationEvents, integration: integrations, secrets: integrationScripts.secrets })
    .from(integrationEvents)
    .innerJoin(integrations, eq(integrations.name, integrationEvents.integrationName))
    .leftJoin(integrationScripts, eq(integrationScripts.integrationName, integrations.name))
    .where(eq(integrationEvents.id, eventId));
  // Unpublished meanwhile (its events went with it), or delivered by an earlier run.
  if (!found || found.event.status !== 'pending') return;
  const { event, integration } = found;
  const attempt = ctx.job.attempts;
  const tunnel = forwardedToTunnel(integration, event.organizationId);
  const where = tunnel ? integration.devTunnelUrl! : 'the script';
  let scriptLogs: LogLine[] = [];
  try {
    let status: number;
    if (tunnel) {
      if (found.secrets?.[SIGNING_SECRET_NAME] === undefined) {
        await appendLog(ctx.db, eventId, logLine(ctx.now(), 'warn', `Unsigned: the integration has no ${SIGNING_SECRET_NAME} secret to sign tunnel deliveries with`));
      }
      status = await post(integration.devTunnelUrl!, eventId, event.payload, timeoutMs, found.secrets?.[SIGNING_SECRET_NAME], ctx.now());
    } else {
      const ran = await runScript(ctx, integration.name, event.payload, runner);
      scriptLogs = ran.logs;
      status = ran.status;
      if (status < 200 || status > 299) throw new Error(`the script answered ${status}`);
    }
    await appendLogs(ctx, eventId, scriptLogs);
    await settleEvent(ctx.db, eventId, 'success', logLine(ctx.now(), 'info', `Delivery attempt ${attempt} to ${where}: ${status}`));
  } catch (err) {
    await appendLogs(ctx, eventId, scriptLogs.length > 0 ? scriptLogs : ((err as { logs?: LogLine[] }).logs ?? []));
    const line = logLine(ctx.now(), 'error', `Delivery attempt ${attempt} to ${where} failed: ${describe(err)}`);
    if (attempt >= ctx.job.maxAttempts) {
      await settleEvent(ctx.db, eventId, 'failed', line);
      return;
    }
    await appendLog(ctx.db, eventId, line);
    // The runner retries the job after its backoff.
    throw err;
  }
}

/** The event as a POST of its JSON to the script's fetch, at the integration's public endpoint. */
async function runScript(ctx: JobContext, name: string, payload: Record<string, unknown>, runner: ScriptRunner) {
  const target = {
    installationId: payload.installationId as string | undefined,
    spaceId: payload.spaceId as string | undefined,
    siteId: payload.siteId as string | undefined,
  };
  const loaded = await scriptEnv(ctx.db, name, target);
  if (!loaded) throw new Error('the integration has no script');
  return runner({
    key: name,
    script: loaded.script,
    env: loaded.env,
    request: {
      method: 'POST',
      url: `${scriptServerOrigin()}${integrationEndpointPath(name)}`,
      headers: [
        ['content-type', 'application/json'],
        ['x-integration-event', String(payload.type)],
      ],
      body: JSON.stringify(payload),
    },
  });
}

/** The lines the script logged, in the event's trace. */
async function appendLogs(ctx: JobContext, eventId: string, logs: LogLine[]) {
  for (const line of logs) await appendLog(ctx.db, eventId, line);
}

/** The handler the server registers (server/jobs/registry.ts). */
export const deliverIntegrationEvent = createDeliveryHandler();
