// PGlite on its own thread (server/db/pglite-thread.ts) behaves as PGlite on the caller's thread for what
// the server uses: queries with text parsers, transactions that commit or roll back and hold the database
// meanwhile, PostgreSQL's error fields, and closing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { createDb } from '../server/db/client.js';
import { PGliteThread } from '../server/db/pglite-thread.js';

// Every database here starts from the suite's migrated template (test/support/global-setup.ts): unpacking it
// costs a fraction of an initdb in WebAssembly, and this file starts six.
let template: Uint8Array;
let database: PGliteThread;
beforeAll(async () => {
  template = readFileSync(inject('pgliteTemplate'));
  database = new PGliteThread({ loadDataDir: template });
  await database.waitReady;
  await database.exec('CREATE TABLE t (id integer PRIMARY KEY, at timestamptz)');
});
afterAll(() => database.close());

describe('PGlite on its own thread', () => {
  it('answers rows as objects or arrays, keeping a type as text when a parser asks for it', async () => {
    await database.query("INSERT INTO t VALUES (1, '2001-02-03 04:05:06+00')");
    const asObjects = await database.query<{ id: number; at: Date }>('SELECT id, at FROM t WHERE id = $1', [1]);
    expect(asObjects.rows).toEqual([{ id: 1, at: new Date('2001-02-03T04:05:06Z') }]);
    const asText = await database.query('SELECT id, at FROM t WHERE id = $1', [1], { rowMode: 'array', parsers: { 1184: (value: string) => value } });
    expect(asText.rows).toEqual([[1, '2001-02-03 04:05:06+00']]);
    expect(() => database.query('SELECT 1', [], { parsers: { 1184: (value: string) => value.length } })).toThrow(/parser of type 1184/);
  });

  it('commits a transaction whose callback resolves, and rolls back one whose callback throws', async () => {
    const result = await database.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (2, now())');
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0].n;
    });
    expect(result).toBe(2);
    await expect(
      database.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (3, now())');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await database.query('SELECT id FROM t ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('runs a query from outside an open transaction only after it ends', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = database.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (4, now())');
      order.push('inserted');
      await held;
      order.push('committing');
    });
    // Let the transaction open and insert before the outside query is sent.
    while (order.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const outside = database.query<{ id: number }>('SELECT id FROM t WHERE id = 4').then((r) => {
      order.push('outside read');
      return r.rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await outside).toEqual([{ id: 4 }]);
    expect(order).toEqual(['inserted', 'committing', 'outside read']);
  });

  it('prepares a statement once for concurrent first uses, on the database and in transactions, and keeps it after a rollback', async () => {
    const text = 'SELECT id, $1::text AS tag FROM t WHERE id = $2::int';
    // The first uses race: each would PREPARE the same name, and the second PREPARE would fail (42P05).
    const outside = await Promise.all(Array.from({ length: 10 }, (_, i) => database.execute('race_check', text, [`o${i}`, 1])));
    expect(outside.map((r) => r.rows[0])).toEqual(Array.from({ length: 10 }, (_, i) => ({ id: 1, tag: `o${i}` })));
    // A transaction opened while the database PREPAREs, and one using the statement while a query outside waits for it.
    const [inside] = await Promise.all([
      database.transaction(async (tx) => {
        const handle = tx as unknown as PGliteThread;
        const rows = await Promise.all([handle.execute('race_check', text, ["it's", 1]), handle.execute('race_check', text, ['b', 2])]);
        return rows.map((r) => r.rows);
      }),
      database.execute('race_check', text, ['waiting', 1]),
    ]);
    expect(inside).toEqual([[{ id: 1, tag: "it's" }], [{ id: 2, tag: 'b' }]]);
    await expect(
      database.transaction(async (tx) => {
        await (tx as unknown as PGliteThread).execute('rolled_back', 'SELECT $1::int AS n', [5]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await database.transaction(async (tx) => expect((await (tx as unknown as PGliteThread).execute('rolled_back', 'SELECT $1::int AS n', [6])).rows).toEqual([{ n: 6 }]));
  });

  it("keeps PostgreSQL's error fields (SQLSTATE, constraint) across the thread", async () => {
    const err = await database.query('INSERT INTO t VALUES (1, now())').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey', severity: 'ERROR' });
  });

  it('fails the queries waiting on a thread that stopped, and every later one, rather than hanging', async () => {
    const other = new PGliteThread({ loadDataDir: template });
    await other.waitReady;
    const waiting = other.query('SELECT pg_sleep(0.2)');
    await (other as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(waiting).rejects.toThrow(/database thread stopped/);
    await expect(other.query('SELECT 1')).rejects.toThrow(/database thread stopped/);
  });

  it('is what createDb opens for PGlite, unless told to stay on the caller thread (PGLITE_THREAD=false)', async () => {
    const threaded = createDb({ kind: 'pglite', loadDataDir: template });
    const inline = createDb({ kind: 'pglite', thread: false, loadDataDir: template });
    try {
      expect((threaded.db as unknown as { $client: unknown }).$client).toBeInstanceOf(PGliteThread);
      expect((inline.db as unknown as { $client: unknown }).$client).toBeInstanceOf(PGlite);
    } finally {
      await Promise.all([threaded.close(), inline.close()]);
    }
  });

  it('says when closing failed (its last writes may not be in the folder) and still stops the thread', async () => {
    const other = new PGliteThread({ loadDataDir: template });
    await other.waitReady;
    await (other as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(other.close()).rejects.toThrow(/closing the database failed: the database thread stopped/);
    await expect(other.query('SELECT 1')).rejects.toThrow('PGlite is closed');
  });

  it('refuses queries once closed', async () => {
    const other = new PGliteThread({ loadDataDir: template });
    await other.waitReady;
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow('PGlite is closed');
  });
});
