// Delivery of integration events, as jobs of the background runner (so an event accepted before a crash
// is delivered after it). Each attempt is one job run, logged in the event's trace. The event goes to the
// published script's fetch, in the sandbox (server/runtime/), in the script's protocol
// (dispatch-protocol.ts: GitBook's multipart form for `v2`, the event's JSON with `X-Integration-Event`
// for `v1`); what the script logs joins the trace. In development mode (for the event's organization) the
// same request goes to the tunnel instead, signed (tunnel-forward.ts, signature.ts).
// A 2xx answer settles the event `success`. An error, a timeout, a 5xx, 408 or 429 fails the attempt, and
// after DELIVERY_ATTEMPTS failed attempts (or when the worker of the last one died) the event is `failed`;
// another 4xx of the script fails it at once (it would answer the same again). Each reason, with the start
// of the answer's body, is in the trace.
import { eq } from 'drizzle-orm';
import { integrationEvents, integrations } from '../db/schema/index.js';
import type { JobContext, JobHandler } from '../jobs/runner.js';
import { scriptResponseBytes, scriptServerOrigin, scriptUrls, type ScriptRequest } from '../runtime/script-runtime.js';
import { dispatchRequest, jsonEventRequest } from './dispatch-protocol.js';
import { appendLog, DELIVER_INTEGRATION_EVENT, logLine, settleEvent, type LogLine } from './events.store.js';
import { integrationEndpointPath } from './integration-view.js';
import { loadScriptTarget, sandboxRunner, type LoadedScript, type ScriptRunner } from './script-invocation.js';
import { SIGNING_SECRET_NAME } from './signature.js';
import { sendToTunnel } from './tunnel-forward.js';

export { DELIVER_INTEGRATION_EVENT };

/** How long one delivery attempt may take before it is abandoned. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The most of a tunnel's answer read (its body is not used; a bigger one fails the attempt). */
const DELIVERY_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Whether development mode sends this event to the tunnel: the owner's events, or all with `all`. */
export function forwardedToTunnel(integration: { organizationId: string; devTunnelUrl: string | null; devAll: boolean }, eventOrganizationId: string | null): boolean {
  return integration.devTunnelUrl !== null && (integration.devAll || eventOrganizationId === integration.organizationId);
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

/** An attempt that failed in a way another attempt cannot mend (the script refused the event). */
class Refused extends Error {}

/** The first characters of an answer's body, to say why it was not a success. */
function answerText(bytes: Buffer): string {
  const text = bytes.subarray(0, 300).toString('utf8').replace(/\s+/g, ' ').trim();
  return text ? `: ${text}` : '';
}

/** Delivers one event (payload `{ eventId }`); safe to repeat: a settled event is left alone. */
async function deliver(payload: unknown, ctx: JobContext, timeoutMs: number, runner: ScriptRunner): Promise<void> {
  const { eventId } = payload as { eventId: string };
  const [found] = await ctx.db
    .select({ event: integrationEvents, integration: integrations })
    .from(integrationEvents)
    .innerJoin(integrations, eq(integrations.name, integrationEvents.integrationName))
    .where(eq(integrationEvents.id, eventId));
  // Unpublished meanwhile (its events went with it), or delivered by an earlier run.
  if (!found || found.event.status !== 'pending') return;
  const { event, integration } = found;
  const attempt = ctx.job.attempts;
  const tunnel = forwardedToTunnel(integration, event.organizationId);
  const where = tunnel ? integration.devTunnelUrl! : 'the script';
  let scriptLogs: LogLine[] = [];
  try {
    const loaded = await loadEvent(ctx, integration.name, event.payload);
    const request = eventRequest(integration.name, event.payload, loaded);
    let status: number;
    if (tunnel) {
      const signingSecret = loaded?.secrets[SIGNING_SECRET_NAME];
      if (signingSecret === undefined) {
        await appendLog(ctx.db, eventId, logLine(ctx.now(), 'warn', `Unsigned: the integration has no ${SIGNING_SECRET_NAME} secret to sign tunnel deliveries with`));
      }
      // The tunnel receives what the script would: the same protocol, headers and environment.
      const answer = await sendToTunnel({
        tunnelUrl: integration.devTunnelUrl!,
        below: '',
        method: request.method,
        headers: request.headers,
        body: scriptResponseBytes(request),
        eventId,
        signingSecret,
        now: ctx.now(),
        timeoutMs,
      });
      status = answer.status;
      if (status < 200 || status > 299) throw new Error(`the tunnel answered ${status}${answerText(answer.body)}`);
    } else {
      if (!loaded) throw new Error('the integration has no script');
      const ran = await runner({ key: integration.name, script: loaded.script, scriptHash: loaded.scriptHash, env: loaded.env, request });
      status = ran.status;
      // Work the script left to waitUntil goes on after its answer: its lines join the trace once it is done.
      const settled = ran.settled ? await ran.settled : undefined;
      scriptLogs = settled?.logs ?? ran.logs;
      if (settled?.error) scriptLogs = [...scriptLogs, logLine(ctx.now(), 'error', `The work left to waitUntil failed: ${settled.error}`)];
      if (status < 200 || status > 299) {
        const reason = `the script answered ${status}${answerText(scriptResponseBytes(ran))}`;
        // A 4xx is the script's answer to this event (e.g. @gitbook/runtime's 406 for an event it has no
        // handler for): the same event would get it again. A timeout or a 429 may pass another time.
        throw status >= 400 && status < 500 && status !== 408 && status !== 429 ? new Refused(reason) : new Error(reason);
      }
    }
    await appendLogs(ctx, eventId, scriptLogs);
    await settleEvent(ctx.db, eventId, 'success', logLine(ctx.now(), 'info', `Delivery attempt ${attempt} to ${where}: ${status}`));
  } catch (err) {
    await appendLogs(ctx, eventId, scriptLogs.length > 0 ? scriptLogs : ((err as { logs?: LogLine[] }).logs ?? []));
    const line = logLine(ctx.now(), 'error', `Delivery attempt ${attempt} of ${ctx.job.maxAttempts} to ${where} failed: ${describe(err)}`);
    if (attempt >= ctx.job.maxAttempts || err instanceof Refused) {
      await settleEvent(ctx.db, eventId, 'failed', err instanceof Refused ? logLine(ctx.now(), 'error', `${line.message}; not attempted again`) : line);
      return;
    }
    await appendLog(ctx.db, eventId, line);
    // The runner retries the job after its backoff.
    throw err;
  }
}

/** The script (with what it is given) of the installation, space or site the event concerns. */
async function loadEvent(ctx: JobContext, name: string, payload: Record<string, unknown>) {
  const target = {
    installationId: payload.installationId as string | undefined,
    spaceId: payload.spaceId as string | undefined,
    siteId: payload.siteId as string | undefined,
  };
  return (await loadScriptTarget(ctx.db, name, target))?.loaded;
}

/** The request that carries the event to the script, in its protocol (dispatch-protocol.ts). */
function eventRequest(name: string, payload: Record<string, unknown>, loaded: LoadedScript | undefined): ScriptRequest {
  if (loaded?.protocol === 'v2') return dispatchRequest(scriptServerOrigin(), payload, loaded.environment!);
  return jsonEventRequest(scriptUrls().root(integrationEndpointPath(name)), payload);
}

/** The lines the script logged, in the event's trace. */
async function appendLogs(ctx: JobContext, eventId: string, logs: LogLine[]) {
  for (const line of logs) await appendLog(ctx.db, eventId, line);
}

/** The handler the server registers (server/jobs/registry.ts). */
export const deliverIntegrationEvent = createDeliveryHandler();
