// The embedded database's own thread (see pglite-thread.ts, which starts it and speaks for it on the
// server's thread). PGlite runs PostgreSQL compiled to WebAssembly on whatever thread calls it; here that
// is this worker, so a long query, or the garbage PGlite's result reading leaves, no longer stops the
// server's thread from answering other requests.
//
// Plain JavaScript on purpose: a worker thread loads this file with Node's own loader, which neither
// tsx nor vitest extends to new threads.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { sqlLiteral } from './sql-literal.mjs';

/** A parser giving the value's text as it is: what Drizzle asks for dates, timestamps and intervals. */
const asText = (value) => value;

const database = new PGlite({
  ...(workerData.dataDir !== undefined && { dataDir: workerData.dataDir }),
  ...(workerData.loadDataDir !== undefined && { loadDataDir: new Blob([workerData.loadDataDir]) }),
});

/**
 * The transactions, by the id the server's thread gave them: `ready` (settles once PGlite opened it: its
 * queries, sent right behind `begin`, wait for it), PGlite's handle, and how to end it.
 */
const transactions = new Map();

/** Where a query runs: in its transaction once open, or on the database (which queues it behind any open one). */
async function target(tx) {
  if (tx === undefined) return database;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  await open.ready;
  return open.handle;
}

/**
 * The statements PREPAREd in PGlite's only session (a statement prepared in a transaction stays prepared
 * when the transaction rolls back: PREPARE is not transactional), as the promise of their PREPARE, so
 * that concurrent first uses prepare once. Kept apart for the database and for transactions, under names
 * of their own: a query in a transaction must never wait for a PREPARE sent to the database, which waits
 * for that transaction to end. Two transactions never run at once, so the second finds the first's done.
 */
const prepared = { database: new Map(), transaction: new Map() };

function prepare(on, tx, name, text) {
  const kind = tx === undefined ? 'database' : 'transaction';
  const statement = tx === undefined ? name : `${name}_tx`;
  let ready = prepared[kind].get(statement);
  if (!ready) {
    ready = on.exec(`PREPARE ${statement} AS ${text}`);
    prepared[kind].set(statement, ready);
    // A PREPARE that failed (an aborted transaction) is tried again by the next use.
    ready.catch(() => prepared[kind].delete(statement));
  }
  return ready.then(() => statement);
}

/**
 * Runs the statement `name` (PREPAREd from `text` on first use), so that PGlite parses and plans it once:
 * EXECUTE is a utility statement and takes no bind parameters, so the values go in as quoted literals (and a
 * statement without parameters is EXECUTEd without parentheses: `name()` is a syntax error).
 */
function executeText(statement, params) {
  return params.length === 0 ? `EXECUTE ${statement}` : `EXECUTE ${statement}(${params.map(sqlLiteral).join(', ')})`;
}

async function execute({ name, text, params, tx }) {
  const on = await target(tx);
  const statement = await prepare(on, tx, name, text);
  const { rows, affectedRows } = await on.query(executeText(statement, params));
  // Without `fields`: directQuery reads the rows only, and the description of every column, copied to the
  // server's thread with each answer, doubled what a wide statement cost to send (bench/results/script-runtime.md).
  return { rows, fields: [], affectedRows };
}

function queryOptions({ rowMode, textTypes }) {
  return { rowMode, ...(textTypes.length > 0 && { parsers: Object.fromEntries(textTypes.map((oid) => [oid, asText])) }) };
}

/** PGlite's results without what cannot cross threads (the query options hold functions). */
const plainResult = ({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows });

/** How to stop hearing each channel LISTENed to. */
const unlisteners = new Map();

const operations = {
  query: async (m) => plainResult(await (await target(m.tx)).query(m.text, m.params, queryOptions(m))),
  exec: async (m) => (await (await target(m.tx)).exec(m.text)).map(plainResult),
  execute,
  // Opens a transaction and answers once it is open; it stays open, holding PGlite's only session, until
  // `end` settles it: committed, or rolled back by the error its callback then throws. It is known at
  // once, so the queries sent behind it wait for it to open instead of failing.
  begin: (m) => {
    const open = { ready: undefined, handle: undefined, commit: undefined, rollback: undefined, ended: undefined };
    transactions.set(m.tx, open);
    open.ready = new Promise((opened, failed) => {
      open.ended = database.transaction(
        (handle) =>
          new Promise((commit, rollback) => {
            Object.assign(open, { handle, commit, rollback });
            opened(undefined);
          }),
      );
      // A BEGIN that fails answers `begin` (and the queries waiting for it); once open, `end` reports how it ended.
      open.ended.catch(failed).finally(() => transactions.delete(m.tx));
    });
    return open.ready;
  },
  end: async (m) => {
    const open = transactions.get(m.tx);
    if (!open) throw new Error(`transaction ${m.tx} is not open`);
    await open.ready;
    if (m.commit) {
      open.commit();
      await open.ended;
    } else {
      open.rollback(new Error('rolled back'));
      await open.ended.catch(() => {});
    }
  },
  // Notices go to the server's thread as they come, ahead of the answer of the statement that committed them.
  listen: async (m) => {
    unlisteners.set(m.channel, await database.listen(m.channel, (payload) => parentPort.postMessage({ channel: m.channel, payload })));
  },
  unlisten: async (m) => {
    await unlisteners.get(m.channel)?.();
    unlisteners.delete(m.channel);
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
