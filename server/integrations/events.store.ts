// Integration events: recorded with their payload, delivered by a background job (delivery.job.ts),
// listed newest first and read with their trace.
import { and, eq, sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { attachListPage, attachSelect, rowsOf } from '../db/attached-select.js';
import { keysetPageSelects, listBody, readKeysetPage, type PageRequest } from '../db/paginate.js';
import { integrationEvents } from '../db/schema/index.js';
import { NotFound } from '../errors.js';
import { newId } from '../ids.js';
import { runSql, sqlText } from '../db/sql-text.js';
import { insertJobsSql } from '../jobs/queue.js';
import { administeredIntegrationWith } from './integration-access.js';

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
 * Records events and enqueues their deliveries, in the caller's transaction: an event that is committed has
 * its delivery job committed with it, so a crash loses none. One statement however many events (one per
 * installation of a space, say); returns their ids in order.
 */
export async function recordEvents(db: Db, now: Date, events: NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => {
    const id = newId('evt', now.getTime());
    const payload = { eventId: id, type: event.type, ...(event.installationId && { installationId: event.installationId }), ...event.fields };
    return { id, integration_name: event.integrationName, installation_id: event.installationId ?? null, organization_id: event.organizationId, payload };
  });
  const logs = JSON.stringify([logLine(now, 'debug', 'Event queued for delivery')]);
  const deliveries = rows.map((row, i) => ({ kind: DELIVER_INTEGRATION_EVENT, payload: { eventId: row.id }, maxAttempts: DELIVERY_ATTEMPTS, runAt: events[i]!.runAt }));
  // One statement: the events, and (the statement's main part) their delivery jobs.
  await runSql(
    db,
    sqlText`WITH recorded AS (
      INSERT INTO integration_events (id, integration_name, installation_id, organization_id, payload, status, logs, created_at)
      SELECT r.id, r.integration_name, r.installation_id, r.organization_id, r.payload, 'pending', ${logs}::jsonb, ${now}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(id text, integration_name text, installation_id text, organization_id text, payload jsonb))
    ${insertJobsSql(deliveries, now)}`,
  );
  return rows.map((row) => row.id);
}

/** Records one event and enqueues its delivery (recordEvents). */
export async function recordEvent(db: Db, now: Date, event: NewEvent): Promise<string> {
  const [id] = await recordEvents(db, now, [event]);
  return id!;
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

/** The events of an integration, newest first (admins of its owner only), read with its grant. */
export async function listEvents(ctx: Ctx, name: string, page: PageRequest) {
  const selects = keysetPageSelects(ctx.db, integrationEvents, eq(integrationEvents.integrationName, name), [integrationEvents.id], page, {}, 'desc');
  const { attached } = await administeredIntegrationWith(ctx, name, attachListPage('events', selects));
  return listBody(await readKeysetPage(attached, 'events', selects), toEvent);
}

/** One event of an integration with its trace (admins of its owner only), read with its grant; NotFound for an unknown event. */
export async function getEvent(ctx: Ctx, name: string, eventId: string): Promise<EventWithTrace> {
  const select = ctx.db
    .select()
    .from(integrationEvents)
    .where(and(eq(integrationEvents.integrationName, name), eq(integrationEvents.id, eventId)));
  const { attached } = await administeredIntegrationWith(ctx, name, attachSelect('event', select));
  const [row] = await rowsOf(attached, 'event', select);
  if (!row) throw new NotFound(`Event ${eventId} of the integration ${name} not found`);
  return { event: toEvent(row), trace: { logs: row.logs as LogLine[] } };
}
