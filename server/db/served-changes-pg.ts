// The listener of `site_served` notices on PostgreSQL (served-changes.ts): a connection of its own, outside
// the pool, that LISTENs and asks `SELECT 1` every HEARTBEAT_MS. PostgreSQL signals every listening
// session when a change commits, before the writer is told it committed, and a session sends the notices
// it was signalled before it answers a statement: so an answer to a question asked after a commit comes
// after that commit's notice. The changes count as heard only while such an answer is recent
// (PROOF_LASTS_MS: a listener whose connection died silently is noticed within it). A connection that
// fails, ends or does not answer within ANSWER_WITHIN_MS is dropped (what was held is forgotten) and
// opened again, after 100 ms, then up to 5 s between tries.
//
// This process's own writes: `workDone` counts the work its pool finished (a statement, a transaction),
// and a held site is served only once a question asked after the last of them is answered (catchUp), so a
// reader sent here by a write's answer never gets what the write changed. Another process's write reaches
// this one as its notice, which PostgreSQL sends at the commit, ahead of the writer's answer.
import pg from 'pg';
import { SERVED_CHANNEL, type Listening, type ServedChanges } from './served-changes.js';

const HEARTBEAT_MS = 1000;
const ANSWER_WITHIN_MS = 2000;
const PROOF_LASTS_MS = HEARTBEAT_MS + ANSWER_WITHIN_MS;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5000;

export interface PgListenerOptions {
  url: string;
  connectTimeoutMs: number;
  onError: (err: Error) => void;
}

export interface PgListening extends Listening {
  /** Called when the pool finishes a piece of work (its `release` event). */
  workDone: () => void;
}

export function listenOnPostgres({ url, connectTimeoutMs, onError }: PgListenerOptions): PgListening {
  let client: pg.Client | undefined;
  /** The pool's finished work, counted; and how much of it an answered question was asked after. */
  let done = 0;
  let heardUpTo = 0;
  /** The question in flight for catchUp, and the one to send once it is answered (for whoever came meanwhile). */
  let asking: { covers: number; answered: Promise<void> } | undefined;
  let queued: Promise<void> | undefined;
  let noAnswer: (c: pg.Client) => void = () => {};

  /** Asks `SELECT 1` on `c`: resolves true when answered in time (all the work done before is then heard). */
  const ask = (c: pg.Client): Promise<boolean> => {
    const covers = done;
    let deadline: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      deadline = setTimeout(() => resolve(false), ANSWER_WITHIN_MS);
      deadline.unref();
    });
    const answer = c.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return Promise.race([answer, late]).then((answered) => {
      clearTimeout(deadline);
      if (answered && client === c) heardUpTo = Math.max(heardUpTo, covers);
      return answered;
    });
  };

  // One question at a time: the readers who come while one is in flight share the next, sent when it is
  // answered, which covers all the work done before it is sent (theirs included).
  const send = (): Promise<void> => {
    const c = client;
    // Not answered in time: the connection is dropped (so nothing held is served) before the readers go on.
    const answered = c ? ask(c).then((ok) => void (ok || noAnswer(c))) : Promise.resolve();
    const current = { covers: done, answered };
    asking = current;
    void current.answered.finally(() => {
      if (asking === current) asking = undefined;
    });
    return current.answered;
  };
  const catchUp = (): Promise<void> | undefined => {
    if (heardUpTo >= done || !client) return undefined;
    if (!asking) return send();
    if (asking.covers >= done) return asking.answered;
    queued ??= asking.answered.then(() => {
      queued = undefined;
      return send();
    });
    return queued;
  };

  const start = (changes: ServedChanges) => {
    let stopped = false;
    let retryMs = RETRY_FIRST_MS;
    let timer: NodeJS.Timeout | undefined;
    const later = (fn: () => void, ms: number) => {
      timer = setTimeout(fn, ms);
      timer.unref();
    };

    const lose = (c: pg.Client, err?: Error) => {
      if (client !== c) return;
      client = undefined;
      changes.down();
      if (err && !stopped) onError(err);
      c.end().catch(() => {});
      if (stopped) return;
      clearTimeout(timer);
      later(connect, retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };

    noAnswer = (c) => lose(c, new Error('the listener of site changes did not answer'));

    const heartbeat = (c: pg.Client) => {
      if (client !== c) return;
      void ask(c).then((answered) => {
        if (client !== c) return;
        if (!answered) return noAnswer(c);
        changes.alive();
        later(() => heartbeat(c), HEARTBEAT_MS);
      });
    };

    const connect = () => {
      if (stopped) return;
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true, application_name: 'site_served listener' });
      client = c;
      c.on('error', (err) => lose(c, err));
      c.on('end', () => lose(c, new Error('the listener of site changes was disconnected')));
      c.on('notification', (notice) => {
        if (client === c && notice.channel === SERVED_CHANNEL) changes.tell(notice.payload ?? '*');
      });
      c.connect()
        .then(() => c.query(`LISTEN ${SERVED_CHANNEL}`))
        .then(
          () => {
            if (client !== c) return;
            retryMs = RETRY_FIRST_MS;
            // What was held is forgotten (up): the work done before is read anew, not heard.
            heardUpTo = done;
            changes.up();
            later(() => heartbeat(c), HEARTBEAT_MS);
          },
          (err: Error) => lose(c, err),
        );
    };

    connect();
    return async () => {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    };
  };

  return { start, catchUp, proofLasts: PROOF_LASTS_MS, workDone: () => void done++ };
}
