// The embedded database's own thread (see pglite-thread.ts, which starts it and speaks for it on the
// server's thread). PGlite runs PostgreSQL compiled to WebAssembly on whatever thread calls it; here that
// is this worker, so a long query, or the garbage PGlite's result reading leaves, no longer stops the
// server's thread from answering other requests.
//
// Plain JavaScript on purpose: a worker thread loads this file with Node's own loader, which neither
// tsx nor vitest extends to new threads.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** A parser giving the value's text as it is: what Drizzle asks for dates, timestamps and intervals. */
const asText = (value) => value;

const database = new PGlite({
  ...(workerData.dataDir !== undefined && { dataDir: workerData.dataDir }),
  ...(workerData.loadDataDir !== undefined && { loadDataDir: new Blob([workerData.loadDataDir]) }),
});

/** The open transactions, by the id the server's thread gave them: PGlite's handle, and how to end it. */
const transactions = new Map();

/** Where a query runs: in its open transaction, or on the database (which queues it behind any open one). */
function target(tx) {
  if (tx === undefined) return database;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.handle;
}

function queryOptions({ rowMode, textTypes }) {
  return { rowMode, ...(textTypes.length > 0 && { parsers: Object.fromEntries(textTypes.map((oid) => [oid, asText])) }) };
}

/** PGlite's results without what cannot cross threads (the query options hold functions). */
const plainResult = ({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows });

const operations = {
  query: (m) => target(m.tx).query(m.text, m.params, queryOptions(m)).then(plainResult),
  exec: (m) => target(m.tx).exec(m.text).then((results) => results.map(plainResult)),
  // Opens a transaction and answers once it is open; it stays open, holding PGlite's only session, until
  // `end` settles it: committed, or rolled back by the error its callback then throws.
  begin: (m) =>
    new Promise((opened, failed) => {
      const open = { handle: undefined, commit: undefined, rollback: undefined, ended: undefined };
      open.ended = database.transaction(
        (handle) =>
          new Promise((commit, rollback) => {
            Object.assign(open, { handle, commit, rollback });
            transactions.set(m.tx, open);
            opened(undefined);
          }),
      );
      // A BEGIN that fails answers `begin`; once open, `end` reports how it ended.
      open.ended.catch(failed).finally(() => transactions.delete(m.tx));
    }),
  end: async (m) => {
    const open = transactions.get(m.tx);
    if (!open) throw new Error(`transaction ${m.tx} is not open`);
    if (m.commit) {
      open.commit();
      await open.ended;
    } else {
      open.rollback(new Error('rolled back'));
      await open.ended.catch(() => {});
    }
  },
  close: () => database.close(),
};

/** An error as it can cross threads, keeping PostgreSQL's fields (code, constraint, …) for the server's thread. */
function plainError(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { ...fields, name: err.name, message: err.message, stack: err.stack };
}

parentPort.on('message', (message) => {
  let answer;
  try {
    answer = Promise.resolve(operations[message.op](message));
  } catch (err) {
    answer = Promise.reject(err);
  }
  const fail = (err) => parentPort.postMessage({ id: message.id, error: plainError(err) });
  answer.then((result) => {
    try {
      parentPort.postMessage({ id: message.id, result });
    } catch (err) {
      // A value that cannot be copied to another thread fails its query, not the thread.
      fail(err);
    }
  }, fail);
});

database.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (err) => parentPort.postMessage({ ready: false, error: plainError(err) }),
);
