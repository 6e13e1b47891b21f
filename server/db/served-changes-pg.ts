// The listener of `site_served` and `api_written` notices on PostgreSQL (served-changes.ts): a connection of its own, outside
// the pool, that LISTENs and asks `SELECT 1` every HEARTBEAT_MS. PostgreSQL signals every listening
// session when a change commits, before the writer is told it committed, and a session sends the notices
// it was signalled before it answers a statement: so an answer to a question asked after a commit comes
// after that commit's notice. The changes count as heard only while such an answer is recent
// (PROOF_LASTS_MS: a listener whose connection died silently is noticed within it). A connection that
// fails, ends or does not answer within ANSWER_WITHIN_MS is dropped (what was held is forgotten) and
// opened again, after 100 ms, then up to 5 s between tries.
//
// A held site is served only once a question asked after the reader came is answered (catchUp): every
// change committed before then is heard by that answer, whoever wrote it. A notice alone is not enough:
// PostgreSQL signals the listening session at the commit, but the session, then this process, may read it
// after the writer's client has its answer and has sent a reader here (a two-process test saw it under
// load). Readers who come while a question is in flight share the next one, so a busy process asks about
// one question per round trip, not one per reader.
import pg from 'pg';
import { SERVED_CHANNEL, WRITTEN_CHANNEL, type Listening, type ServedChanges } from './served-changes.js';

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

export function listenOnPostgres({ url, connectTimeoutMs, onError }: PgListenerOptions): Listening {
  let client: pg.Client | undefined;
  /** The question in flight for catchUp, and the one to send once it is answered (for whoever came meanwhile). */
  let asking: { answered: Promise<void> } | undefined;
  let queued: Promise<void> | undefined;
  let noAnswer: (c: pg.Client) => void = () => {};

  /** Asks `SELECT 1` on `c`: resolves true when answered in time (all committed before is then heard). */
  const ask = (c: pg.Client): Promise<boolean> => {
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
      return answered;
    });
  };

  // One question at a time: the readers who come while one is in flight share the next, sent when it is
  // answered, so sent after each of them came.
  const send = (): Promise<void> => {
    const c = client;
    // Not answered in time: the connection is dropped (so nothing held is served) before the readers go on.
    const answered = c ? ask(c).then((ok) => void (ok || noAnswer(c))) : Promise.resolve();
    const current = { answered };
    asking = current;
    void current.answered.finally(() => {
      if (asking === current) asking = undefined;
    });
    return current.answered;
  };
  const catchUp = (): Promise<void> | undefined => {
    if (!client) return undefined;
    // Only a question sent from now on answers for what committed before this reader came.
    if (!asking) return send();
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
        if (client !== c) return;
        if (notice.channel === SERVED_CHANNEL) changes.tell(notice.payload ?? '*');
        else if (notice.channel === WRITTEN_CHANNEL) changes.tellWritten();
      });
      c.connect()
        .then(() => c.query(`LISTEN ${SERVED_CHANNEL}; LISTEN ${WRITTEN_CHANNEL}`))
        .then(
          () => {
            if (client !== c) return;
            retryMs = RETRY_FIRST_MS;
            // What was held is forgotten (up): what committed before is read anew, not heard.
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

  return { start, catchUp, proofLasts: PROOF_LASTS_MS };
}
