// PGlite on the server's own thread (`PGLITE_THREAD=false`, tools given a PGlite), telling a tracer of each
// statement, as pglite-thread.ts does for the database thread: the object Drizzle and directQuery are given
// in place of the PGlite instance. Its `query` and `exec`, a transaction's (with its BEGIN and its COMMIT or
// ROLLBACK) are traced by their SQL text, whose values are `$1…` parameters; everything else is PGlite's
// own. PGlite's transaction sends BEGIN and COMMIT itself, so their spans are measured around them: BEGIN
// from the call until the callback starts (waiting for the session included, as on the thread), COMMIT or
// ROLLBACK from the callback's end until the transaction settles. Outside a sampled request a statement
// costs the tracer's one check.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { QueryEnd, QueryTracer } from './query-trace.js';

/** `answer` reported to `end` once settled; passed on as it is. */
function reported<T>(answer: Promise<T>, end: QueryEnd | undefined): Promise<T> {
  if (end) answer.then(() => end(), end);
  return answer;
}

type Runner = Pick<PGlite, 'query' | 'exec'>;

/** `runner`'s query and exec, each statement reported to `tracer`. */
function tracedStatements(runner: Runner, tracer: QueryTracer): Runner {
  return {
    query: ((text: string, params?: unknown[], options?: unknown) =>
      reported(runner.query(text, params, options as never), tracer.start(text))) as PGlite['query'],
    exec: ((text: string, options?: unknown) => reported(runner.exec(text, options as never), tracer.start(text))) as PGlite['exec'],
  };
}

/** `client`, each statement sent through it reported to `tracer`. */
export function tracedPGlite(client: PGlite, tracer: QueryTracer): PGlite {
  const statements = tracedStatements(client, tracer);
  const transaction = async <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> => {
    // Outside a sampled request: PGlite's own transaction, no traced copy of it made.
    if (!tracer.tracing()) return client.transaction(callback);
    let begin = tracer.start('BEGIN');
    let end: QueryEnd | undefined;
    let callbackFailed = false;
    try {
      const result = await client.transaction(async (tx) => {
        begin?.();
        begin = undefined;
        const traced = Object.create(tx, Object.getOwnPropertyDescriptors(tracedStatements(tx, tracer))) as Transaction;
        traced.rollback = () => reported(tx.rollback(), tracer.start('ROLLBACK'));
        try {
          const value = await callback(traced);
          if (!tx.closed) end = tracer.start('COMMIT');
          return value;
        } catch (err) {
          callbackFailed = true;
          if (!tx.closed) end = tracer.start('ROLLBACK');
          throw err;
        }
      });
      end?.();
      return result;
    } catch (err) {
      begin?.(err); // BEGIN itself failed
      // The callback's own error is not the ROLLBACK's: that succeeded unless PGlite threw something else.
      end?.(callbackFailed ? undefined : err);
      throw err;
    }
  };
  // PGlite keeps private fields, so its other methods run on the instance itself, not on this proxy.
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query' || property === 'exec') return statements[property];
      if (property === 'transaction') return transaction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
