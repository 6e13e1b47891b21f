// Integration events: recorded with their payload, delivered by a background job (delivery.job.ts),
// listed newest first and read with their trace.
import { and, eq, sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { keysetPage, listBody, type PageRequest } from '../db/paginate.js';
import { integrationEvents } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueJob } from '../jobs/queue.js';
import { administeredIntegration } from './integration-access.js';

export type IntegrationEvent = components['schemas']['IntegrationEvent'];
export type EventWithTrace = components['schemas']['IntegrationEventWithTrace'];
export type EventRow = typeof integrationEvents.$inferSelect;
export type LogLine = EventRow['logs'][number];
type EventType = IntegrationEvent['payload']['type'];

export const DELIVER_INTEGRATION_EVENT = 'deliver-integration-event';
/** Delivery attempts of one event (the runner retries with its backoff: 1 s, 2 s between them). */
export const DELIVERY_ATTEMPTS = 3;

/** A trace line at `now`. */
export function logLine(now: Date, level: LogLine['level'], message: string): LogLine {
  return { message, timestamp: now.toISOString(), level };
}

/** The API form of an event: `pending` until delivered, then `success` or `failed`. */
export function toEvent(row: EventRow): IntegrationEvent {
  const installationId = row.installationId ?? (row.payload.installationId as string | undefined);
  return {
    object: 'integration-event',
    id: row.id,
    integrationId: row.integrationName,
    // An uninstalled installation's events lose the reference, not the id their payload carries.
    ...(installationId !== undefined && { installationId }),
    createdAt: row.createdAt.toISOString(),
    payload: row.payload as IntegrationEvent['payload'],
    status: row.status as IntegrationEvent['status'],
  };
}

export interface NewEvent {
  integrationName: string;
  type: EventType;
  installationId?: string;
  /** The organization the event comes from (development mode forwards the owner's only, unless `all`). */
  organizationId: string;
  /** Fields of the payload beside `eventId`, `type` and `installationId`. */
  fields?: Record<string, unknown>;
  /** Not delivered before this time (a scheduled task); default: at once. */
  runAt?: Date;
}

/**
 * Records an event and enqueues its delivery, in the caller's transaction: an event that is committed
 * has its delivery job committed with it, so a crash loses none.
 */
export async function recordEvent(db: Db, now: Date, event: NewEvent): Promise<string> {
  const id = newId('evt', now.getTime());
  const payload = { eventId: id, type: event.type, ...(event.installationId && { installationId: event.installationId }), ...event.fields };
  await db.insert(integrationEvents).values({
    id,
    integrationName: event.integrationName,
    installationId: event.installationId ?? null,
    organizationId: event.organizationId,
    payload,
    status: 'pending',
    logs: [logLine(now, 'debug', 'Event queued for delivery')],
    createdAt: now,
  });
  await enqueueJob(db, { kind: DELIVER_INTEGRATION_EVENT, payload: { eventId: id }, maxAttempts: DELIVERY_ATTEMPTS, runAt: event.runAt }, now);
  return id;
}

/** Ends an event's delivery: its status and one more trace line, unless it was already settled. */
export async function settleEvent(db: Db, eventId: string, status: 'success' | 'failed', line: LogLine): Promise<void> {
  await db
    .update(integrationEvents)
    .set({ status, logs: sql`${integrationEvents.logs} || ${JSON.stringify([line])}::jsonb` })
    .where(and(eq(integrationEvents.id, eventId), eq(integrationEvents.status, 'pending')));
}

/** Appends a line to an event's trace. */
export async function appendLog(db: Db, eventId: string, line: LogLine): Promise<void> {
  await db
    .update(integrationEvents)
    .set({ logs: sql`${integrationEvents.logs} || ${JSON.stringify([line])}::jsonb` })
    .where(eq(integrationEvents.id, eventId));
}

/** The events of an integration, newest first (admins of its owner only). */
export async function listEvents(ctx: Ctx, name: string, page: PageRequest) {
  await administeredIntegration(ctx, name);
  const result = await keysetPage(ctx.db, integrationEvents, eq(integrationEvents.integrationName, name), [integrationEvents.id], page, {}, 'desc');
  return listBody(result, toEvent);
}

/** One event of an integration with its trace (admins of its owner only); NotFound for an unknown event. */
export async function getEvent(ctx: Ctx, name: string, eventId: string): Promise<EventWithTrace> {
  await administeredIntegration(ctx, name);
  const [row] = await ctx.db
    .select()
    .from(integrationEvents)
    .where(and(eq(integrationEvents.integrationName, name), eq(integrationEvents.id, eventId)));
  if (!row) throw new NotFound(`Event ${eventId} of the integration ${name} not found`);
  return { event: toEvent(row), trace: { logs: row.logs as LogLine[] } };
}
