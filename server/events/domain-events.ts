// Domain events: how a core area (content, change requests, collections, spaces, git sync) tells the
// platform areas (integrations, permissions, search) what happened, without importing them. The writer publishes
// the event in its own transaction; each subscriber, registered where the app is composed
// (server/subscribers.ts), does its part there and then, so a change and what it causes commit together or
// not at all, with no more statements than a direct call. See docs/architecture.md for why this is a
// dispatcher in the transaction and not an outbox table.
import type { SQLWrapper } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Db } from '../db/client.js';
import { rawSql, runSql, sqlText, type SqlFragment } from '../db/sql-text.js';

/** A writer that has no caller (a background job): the transaction and its clock. */
export interface Clocked {
  db: Db;
  now(): Date;
}

/** Each event by name: the scope its writer publishes it in, and what it carries. */
export interface DomainEvents {
  /**
   * A space's primary content points at a new revision (a merge, a template, an import, a translation),
   * from `previousRevisionId` when the writer knows it (search indexes the difference: server/search/index-at-commit.ts).
   */
  'space content updated': { scope: Ctx; data: { spaceId: string; revisionId: string; previousRevisionId?: string } };
  /**
   * A space was made with content already in it, at `revisionId`, in the transaction that made it: a
   * duplicate of `copiedFrom` (the space and the revision whose pages it holds, the same ids at the same paths).
   */
  'space created with content': { scope: Ctx; data: { spaceId: string; revisionId: string; copiedFrom: { spaceId: string; revisionId: string } } };
  /** A move or a restore changed who may see the space. */
  'space visibility updated': { scope: Clocked; data: { spaceId: string; previousVisibility: string; visibility: string } };
  /** A Git Sync operation on the space starts, from its revision and the sync's last commit. */
  'space git sync started': { scope: Clocked; data: { spaceId: string; revisionId: string; commitId: string } };
  /** A Git Sync operation on the space ended, with where it left them. */
  'space git sync completed': { scope: Clocked; data: { spaceId: string; state: string; revisionId: string; commitId: string } };
  /** Spaces left `organizationId` for another organization (a transfer), in the transfer's transaction. */
  'spaces left organization': { scope: Ctx; data: { organizationId: string; spaceIds: string[] } };
  /** Spaces and collections now belong to `organizationId` (a transfer): their rows already say so. */
  'content transferred': { scope: Ctx; data: { organizationId: string; spaceIds?: string[] | SQLWrapper; collectionIds?: string[] | SQLWrapper } };
}

export type EventName = keyof DomainEvents;
export type EventData<K extends EventName> = DomainEvents[K]['data'];
export type EventScope<K extends EventName> = DomainEvents[K]['scope'];
type Rows = Record<string, unknown>[];

export interface Subscriber<K extends EventName> {
  /** Who this is (e.g. `integrations: space_content_updated`), so a test can tell which subscribers an event has. */
  name: string;
  /**
   * A SELECT whose rows `handle` receives. A writer that offers a statement of its own (`inWriterStatement`)
   * runs it there, as its last part, so reading costs no round trip; otherwise it runs alone before `handle`.
   */
  read?(data: EventData<K>): SqlFragment;
  /**
   * A data-modifying statement (an INSERT, an UPDATE) that is this subscriber's whole part, or its first:
   * a writer that offers a statement of its own runs it there as a CTE (`InStatement.ctes`), otherwise it
   * runs alone. `now` is the writer's clock.
   */
  write?(data: EventData<K>, now: Date): SqlFragment;
  handle?(scope: EventScope<K>, data: EventData<K>, rows: Rows): Promise<void>;
}

type AnySubscriber = Subscriber<EventName>;
const subscribers = new Map<EventName, AnySubscriber[]>();

/** Adds a subscriber of `name`; subscribers of one event run in the order they were added. */
export function subscribe<K extends EventName>(name: K, subscriber: Subscriber<K>): void {
  const list = subscribers.get(name) ?? [];
  list.push(subscriber as unknown as AnySubscriber);
  subscribers.set(name, list);
}

/** The subscribers of `name`, in order. */
export function subscribersOf<K extends EventName>(name: K): readonly Subscriber<K>[] {
  return (subscribers.get(name) ?? []) as unknown as Subscriber<K>[];
}

/** Removes every subscriber (tests that register their own). */
export function clearSubscribers(): void {
  subscribers.clear();
}

/** Every event's subscribers as they are now, for `restoreSubscribers` (tests that register their own). */
export function savedSubscribers(): ReadonlyMap<EventName, readonly AnySubscriber[]> {
  return new Map([...subscribers].map(([name, list]) => [name, [...list]]));
}

/**
 * Puts back the subscribers `savedSubscribers` gave. A test that cleared them must: the app subscribes the
 * platform areas once per process, and test files share their worker's modules (vitest.config.ts).
 */
export function restoreSubscribers(saved: ReadonlyMap<EventName, readonly AnySubscriber[]>): void {
  subscribers.clear();
  for (const [name, list] of saved) subscribers.set(name, [...list]);
}

/** Publishes the event in the writer's transaction: each subscriber writes, reads (when it does), then handles it. */
export async function publish<K extends EventName>(scope: EventScope<K>, name: K, data: EventData<K>): Promise<void> {
  for (const subscriber of subscribersOf(name)) {
    if (subscriber.write) await runSql(scope.db, subscriber.write(data, scope.now()));
    const rows = subscriber.read ? await runSql(scope.db, subscriber.read(data)) : [];
    await subscriber.handle?.(scope, data, rows);
  }
}

export interface InStatement<K extends EventName> {
  /** The subscribers' writes as CTEs, each after a comma (`, event_write_0 AS (…)`), to follow the writer's own; empty when none writes. */
  ctes: SqlFragment;
  /** The SELECT to end the writer's statement with: the subscribers' reads, as one. */
  select: SqlFragment;
  /** Hands each subscriber its rows out of the statement's result, then lets it handle the event. */
  publish(scope: EventScope<K>, result: Rows): Promise<void>;
}

/**
 * The event's writes and reads as parts of a statement the writer runs anyway (a merge moves the space,
 * search queues its indexing and integrations read who hears of it, in one round trip). Writes are CTEs of
 * the statement (PostgreSQL runs every data-modifying CTE, whether the rest reads it or not). One reading
 * subscriber's SELECT is used as it is; several are each gathered into a JSON column of one row (so their
 * rows hold JSON values: a timestamp comes as its text); none reads nothing.
 */
export function inWriterStatement<K extends EventName>(name: K, data: EventData<K>, now: Date): InStatement<K> {
  const all = subscribersOf(name);
  const ctes = all
    .filter((s) => s.write)
    .reduce((list, s, i) => sqlText`${list}, ${rawSql(`event_write_${i}`)} AS (${s.write!(data, now)})`, sqlText``);
  const reading = all.filter((s) => s.read);
  const select =
    reading.length === 1
      ? reading[0]!.read!(data)
      : reading.length === 0
        ? sqlText`SELECT NULL WHERE false`
        : reading.reduce<SqlFragment | undefined>((columns, s, i) => {
            const column = sqlText`(SELECT coalesce(jsonb_agg(to_jsonb(r)), '[]'::jsonb) FROM (${s.read!(data)}) r) AS ${rawSql(`read_${i}`)}`;
            return columns === undefined ? sqlText`SELECT ${column}` : sqlText`${columns}, ${column}`;
          }, undefined)!;
  return {
    ctes,
    select,
    async publish(scope, result) {
      for (const subscriber of all) {
        const at = reading.indexOf(subscriber);
        const rows = at < 0 ? [] : reading.length === 1 ? result : ((result[0]?.[`read_${at}`] as Rows | undefined) ?? []);
        await subscriber.handle?.(scope, data, rows);
      }
    },
  };
}

