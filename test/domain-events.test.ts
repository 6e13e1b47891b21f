// The domain-events seam (server/events/domain-events.ts) on its own, with subscribers of this file: each
// subscriber gets the rows of its own read and has its write done, whether the writer runs them in its
// statement or not, in the order they subscribed, in the writer's transaction; and the app subscribes the
// platform areas.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearSubscribers, publish, inWriterStatement, restoreSubscribers, savedSubscribers, subscribe, subscribersOf, type Clocked } from '../server/events/domain-events.js';
import { runSql, sqlText } from '../server/db/sql-text.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
const data = { spaceId: 'space_x', previousVisibility: 'in-collection', visibility: 'private' };
const seen: { by: string; rows: Record<string, unknown>[] }[] = [];
const scope = (): Clocked => ({ db: h.current.db, now: () => new Date() });

/** Subscribes `name`, reading `SELECT <values> AS v` (rows of `v`) when `values` is given. */
function subscriber(name: string, values?: number[]) {
  subscribe('space visibility updated', {
    name,
    ...(values && { read: ({ spaceId }: { spaceId: string }) => sqlText`SELECT x::int AS v, ${spaceId}::text AS space FROM jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) AS x` }),
    handle: async (_, event, rows) => {
      expect(event).toEqual(data);
      seen.push({ by: name, rows });
    },
  });
}

describe('domain events', () => {
  afterAll(() => {
    // The platform areas hear the core areas again, for the files that run after this one in its worker.
    expect(subscribersOf('space content updated').map((s) => s.name)).toEqual(['integrations: space_content_updated', 'search: index the space']);
  });

  it('the app subscribes the platform areas to what the core areas publish', () => {
    // The harness made the app: integrations hear content and visibility updates, permissions transfers,
    // search content updates and spaces made with content.
    expect(subscribersOf('space content updated').map((s) => s.name)).toEqual(['integrations: space_content_updated', 'search: index the space']);
    expect(subscribersOf('space created with content').map((s) => s.name)).toEqual(['search: index the new space']);
    expect(subscribersOf('space visibility updated').map((s) => s.name)).toEqual(['integrations: space_visibility_updated']);
    expect(subscribersOf('content transferred').map((s) => s.name)).toEqual(['permissions: carry grants']);
    expect(subscribersOf('spaces left organization').map((s) => s.name)).toEqual(['integrations: uninstall and undelivered events']);
  });

  describe('with subscribers of this file', () => {
    // The app's subscribers are put back afterwards: other files of this worker's modules need them.
    let apps: ReturnType<typeof savedSubscribers>;
    beforeAll(() => {
      apps = savedSubscribers();
      clearSubscribers();
    });
    afterAll(() => restoreSubscribers(apps));

    it('no subscriber: the statement reads nothing and nothing runs', async () => {
      const reads = inWriterStatement('space visibility updated', data, new Date());
      const result = await runSql(h.current.db, sqlText`WITH w AS (SELECT ${1}::int) ${reads.select}`);
      expect(result).toEqual([]);
      await reads.publish(scope(), result);
      expect(seen).toEqual([]);
    });

    it('one reading subscriber gets its rows as the statement returns them', async () => {
      subscriber('first', [1, 2]);
      const reads = inWriterStatement('space visibility updated', data, new Date());
      await reads.publish(scope(), await runSql(h.current.db, sqlText`WITH w AS (SELECT ${1}::int) ${reads.select}`));
      expect(seen.splice(0)).toEqual([{ by: 'first', rows: [{ v: 1, space: 'space_x' }, { v: 2, space: 'space_x' }] }]);
    });

    it('several subscribers each get their own rows, in order, in the statement or alone', async () => {
      subscriber('second');
      subscriber('third', []);
      subscriber('fourth', [7]);
      const expected = [
        { by: 'first', rows: [{ v: 1, space: 'space_x' }, { v: 2, space: 'space_x' }] },
        { by: 'second', rows: [] },
        { by: 'third', rows: [] },
        { by: 'fourth', rows: [{ v: 7, space: 'space_x' }] },
      ];
      const reads = inWriterStatement('space visibility updated', data, new Date());
      const result = await runSql(h.current.db, sqlText`WITH w AS (SELECT ${1}::int) ${reads.select}`);
      expect(result).toHaveLength(1);
      await reads.publish(scope(), result);
      expect(seen.splice(0)).toEqual(expected);
      await publish(scope(), 'space visibility updated', data);
      expect(seen.splice(0)).toEqual(expected);
    });

    it('a writing subscriber has its write done in the statement of the writer or alone, on the clock of the writer', async () => {
      clearSubscribers();
      await h.current.db.execute(sql`CREATE TABLE IF NOT EXISTS domain_events_writes (space text, written_at timestamptz)`);
      // A write and no handler, as search's; then a reader that sees the write, as a later subscriber would.
      subscribe('space visibility updated', {
        name: 'writer',
        write: ({ spaceId }, now) => sqlText`INSERT INTO domain_events_writes VALUES (${spaceId}::text, ${now}::timestamptz)`,
      });
      subscriber('reader', [3]);
      const now = new Date('2026-11-28T02:00:00Z');
      const writes = async () => runSql(h.current.db, sqlText`SELECT space, written_at FROM domain_events_writes ORDER BY written_at`);

      const inStatement = inWriterStatement('space visibility updated', data, now);
      const result = await runSql(h.current.db, sqlText`WITH w AS (SELECT ${1}::int)${inStatement.ctes} ${inStatement.select}`);
      await inStatement.publish(scope(), result);
      expect(await writes()).toEqual([{ space: 'space_x', written_at: now }]);
      expect(seen.splice(0)).toEqual([{ by: 'reader', rows: [{ v: 3, space: 'space_x' }] }]);

      const later = new Date('2026-11-28T03:00:00Z');
      await publish({ db: h.current.db, now: () => later }, 'space visibility updated', data);
      expect(await writes()).toEqual([
        { space: 'space_x', written_at: now },
        { space: 'space_x', written_at: later },
      ]);
      expect(seen.splice(0)).toEqual([{ by: 'reader', rows: [{ v: 3, space: 'space_x' }] }]);
      await h.current.db.execute(sql`DROP TABLE domain_events_writes`);
    });

    it('a subscriber that throws fails the writer: its transaction rolls back with the change', async () => {
      clearSubscribers();
      subscribe('space visibility updated', {
        name: 'failing',
        handle: async () => {
          throw new Error('subscriber failed');
        },
      });
      await h.current.db.execute(sql`CREATE TABLE IF NOT EXISTS domain_events_probe (v int)`);
      await expect(
        h.current.db.transaction(async (tx) => {
          await runSql(tx as never, sqlText`INSERT INTO domain_events_probe VALUES (${1}::int)`);
          await publish({ db: tx as never, now: () => new Date() }, 'space visibility updated', data);
        }),
      ).rejects.toThrow('subscriber failed');
      expect(await runSql(h.current.db, sqlText`SELECT count(*)::int AS n FROM domain_events_probe WHERE v = ${1}::int`)).toEqual([{ n: 0 }]);
      await h.current.db.execute(sql`DROP TABLE domain_events_probe`);
    });
  });
});
