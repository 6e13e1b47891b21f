// PGlite on a thread of its own (pglite-worker.mjs), spoken to from the server's thread through the part
// of PGlite's interface that Drizzle and directQuery use: query, exec, transaction, close, and `execute`
// for directQuery's prepared statements.
//
// Why: PGlite runs the database on the thread that calls it. On the server's thread, every query stopped
// every other request for its whole run (a search index build for seconds), and the garbage of reading
// results (~400 kB a search) brought V8's major collections, each pausing all requests in flight: with
// 8 clients, the search benchmark's p95 went over 50 ms in single runs (bench/results/search.md). Here the
// server's thread only serializes each query and its rows, and the second core runs the database.
import { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import type { QueryTracer } from './query-trace.js';

type Request =
  | { op: 'query'; text: string; params: unknown[]; rowMode: 'object' | 'array'; textTypes: number[]; tx?: number }
  | { op: 'exec'; text: string; tx?: number }
  | { op: 'execute'; name: string; text: string; params: unknown[]; tx?: number }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'close' };

type Answer = { id: number; result: unknown } | { id: number; error: Record<string, unknown> & { message: string } };
type Notice = { channel: string; payload: string };

export interface PGliteThreadOptions {
  /** The data folder; in memory when absent. */
  dataDir?: string;
  /** A data folder dumped by `dumpDataDir` to start from (the tests' migrated template). */
  loadDataDir?: Uint8Array;
  /** Told of every statement sent to the thread (traces, server/telemetry/). */
  tracer?: QueryTracer;
}

/** A request's statement as a tracer sees it: its text, and its name when prepared; none for `close`. */
function statementOf(request: Request): { text: string; name?: string } | undefined {
  switch (request.op) {
    case 'query':
    case 'exec':
      return { text: request.text };
    case 'execute':
      return { text: request.text, name: request.name };
    case 'begin':
      return { text: 'BEGIN' };
    case 'end':
      return { text: request.commit ? 'COMMIT' : 'ROLLBACK' };
    default:
      return undefined;
  }
}

/** An error of the database thread, with PostgreSQL's fields (code, constraint, …) as PGlite gave them. */
function errorFrom(plain: Record<string, unknown> & { message: string }): Error {
  const err = new Error(plain.message);
  Object.assign(err, plain);
  // Where the caller waited, after where the database failed.
  err.stack = `${plain.stack ?? err.message}\n    --- on the server's thread ---\n${new Error().stack?.split('\n').slice(1).join('\n') ?? ''}`;
  return err;
}

/**
 * The OIDs of the types whose values the caller wants as text. Drizzle's PGlite session asks this for
 * dates, timestamps and intervals with parsers returning their text as is; a parser doing anything else
 * cannot cross to the database thread, so it is refused rather than silently ignored.
 */
function textTypesOf(options: QueryOptions | undefined): number[] {
  if (!options) return [];
  if (options.serializers || options.blob || options.onNotice || options.paramTypes) {
    throw new TypeError('PGlite thread: only rowMode and text parsers are supported in query options');
  }
  return Object.entries(options.parsers ?? {}).map(([oid, parser]) => {
    if (parser('2001-02-03 04:05:06', Number(oid)) !== '2001-02-03 04:05:06') {
      throw new TypeError(`PGlite thread: the parser of type ${oid} does more than keep the text`);
    }
    return Number(oid);
  });
}

export class PGliteThread {
  private readonly worker: Worker;
  private readonly tracer: QueryTracer | undefined;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  /** What hears each channel's notices (listen). */
  private readonly hearers = new Map<string, (payload: string) => void>();
  private nextId = 1;
  private nextTransaction = 1;
  private closing: Promise<void> | undefined;
  /** Why the thread stopped, once it has. */
  private stopped: Error | undefined;
  /** Settles when the database has started (or failed to). */
  readonly waitReady: Promise<void>;

  constructor({ tracer, ...options }: PGliteThreadOptions = {}) {
    this.tracer = tracer;
    this.worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: options,
    });
    this.waitReady = new Promise((resolve, reject) => {
      const onStart = (message: { ready?: boolean; error?: Record<string, unknown> & { message: string } }) => {
        if (message.ready === undefined) return;
        this.worker.off('message', onStart);
        if (message.ready) resolve();
        else reject(errorFrom(message.error!));
      };
      this.worker.on('message', onStart);
    });
    this.waitReady.catch(() => {});
    // The thread keeps the process alive only while a query waits on it (a script that forgets to close
    // the database still ends); starting counts as waiting.
    void this.waitReady.finally(() => {
      if (this.waiting.size === 0) this.worker.unref();
    });
    this.worker.on('message', (message: Answer | Notice) => {
      // A notice is posted before the answer of the statement that committed it (messages keep their order).
      if ('channel' in message) return this.hearers.get(message.channel)?.(message.payload);
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) this.worker.unref();
      if ('error' in message) waiter.reject(errorFrom(message.error));
      else waiter.resolve(message.result);
    });
    // The thread died (out of memory, a crash in PGlite): every query waiting, and every later one, fails
    // instead of hanging.
    const failAll = (err: Error) => {
      this.stopped ??= err;
      for (const waiter of this.waiting.values()) waiter.reject(err);
      this.waiting.clear();
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`the database thread stopped (exit code ${code})`)));
  }

  private send<T>(request: Request): Promise<T> {
    if (this.closing && request.op !== 'close') return Promise.reject(new Error('PGlite is closed'));
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    const statement = this.tracer?.tracing() ? statementOf(request) : undefined;
    const end = statement && this.tracer!.start(statement.text, statement.name);
    const answered = new Promise<T>((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
    if (end) answered.then(() => end(), end);
    return answered;
  }

  query<T>(text: string, params: unknown[] = [], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.send({ op: 'query', text, params, rowMode: options?.rowMode ?? 'object', textTypes: textTypesOf(options), tx });
  }

  exec(text: string, _options?: QueryOptions, tx?: number): Promise<Results[]> {
    return this.send({ op: 'exec', text, tx });
  }

  /**
   * Runs the statement `name`, PREPAREd from `text` by the database thread on first use (it knows what its
   * session has prepared); values are text, numbers, Dates or null (client.ts `directQuery`).
   */
  execute(name: string, text: string, params: unknown[], tx?: number): Promise<Results<Record<string, unknown>>> {
    return this.send({ op: 'execute', name, text, params, tx });
  }

  /**
   * Runs `callback` in a transaction, as PGlite's own does: committed when it resolves, rolled back when
   * it throws; meanwhile the database runs this transaction's queries only.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const tx = this.nextTransaction++;
    // Not waited for: the thread holds this transaction's queries until it is open, so the first one
    // goes out now instead of a round trip later. A failed BEGIN fails them, and is thrown below.
    const opened = this.send({ op: 'begin', tx });
    opened.catch(() => {});
    let closed = false;
    const handle = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => this.query<R>(text, params, options, tx),
      exec: (text: string, options?: QueryOptions) => this.exec(text, options, tx),
      execute: (name: string, text: string, params: unknown[]) => this.execute(name, text, params, tx),
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await callback(handle);
    } catch (err) {
      closed = true;
      await opened.then(() => this.send({ op: 'end', tx, commit: false }), () => {});
      throw err;
    }
    closed = true;
    await opened;
    await this.send({ op: 'end', tx, commit: true });
    return result;
  }

  /** LISTENs on `channel` (one hearer a channel), as PGlite's `listen`: resolves with how to stop, once listening. */
  async listen(channel: string, hear: (payload: string) => void): Promise<() => Promise<void>> {
    this.hearers.set(channel, hear);
    await this.send({ op: 'listen', channel });
    return async () => {
      this.hearers.delete(channel);
      if (!this.closing && !this.stopped) await this.send({ op: 'unlisten', channel });
    };
  }

  /**
   * Closes the database (its data is flushed to the folder) and stops the thread. The thread is stopped
   * even when closing failed; the failure is then thrown, as its last writes may not be in the folder:
   * the caller says so (server/index.ts `stop` logs it).
   */
  close(): Promise<void> {
    this.closing ??= this.send<void>({ op: 'close' }).then(
      () => this.worker.terminate().then(() => undefined),
      (err: unknown) =>
        this.worker.terminate().then(() => {
          throw new Error(`closing the database failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
        }),
    );
    return this.closing;
  }

  /** Queries sent to the database thread and still waiting for their answer (the /metrics page shows it). */
  get queueLength(): number {
    return this.waiting.size;
  }

  /** This object where Drizzle expects a PGlite instance. */
  asPGlite(): PGlite {
    return this as unknown as PGlite;
  }
}
