// The worker loop inside the server process: claim a due job, run its handler, record the outcome,
// repeat; sleep when nothing is due. Several runners (processes) share one jobs table safely: see claims.ts.
import type { Logger } from 'pino';
import { loggableError, type Db } from '../db/client.js';
import { backoffMs, type BackoffOptions } from './backoff.js';
import { claimJob, completeJob, recordFailure, renewLease, type JobRow } from './claims.js';
import type { EnqueueInput } from './queue.js';

/** What a handler receives besides its payload. */
export interface JobContext {
  db: Db;
  log: Logger;
  /** The runner's clock: tests move it. */
  now(): Date;
  job: JobRow;
  /** Enqueues `input` when this job succeeds, in the transaction that marks it done (e.g. the next run of a periodic job). */
  enqueueOnSuccess(input: EnqueueInput): void;
}

/**
 * Runs one job; throwing fails the attempt. Jobs run at least once, so a handler must be safe to repeat.
 * `onExhausted`, when a kind has one, settles the job's own records when the runner fails the job without
 * running it (the worker of its last allowed attempt died): the handler's own last-attempt branch never
 * runs then, and what it would have marked (an event still `pending`, a translation still `running`)
 * would stay so.
 */
export type JobHandler = ((payload: unknown, ctx: JobContext) => Promise<void>) & {
  onExhausted?: (payload: unknown, ctx: JobContext) => Promise<void>;
};
export type JobHandlers = Record<string, JobHandler>;

export interface JobRunnerOptions {
  db: Db;
  logger: Logger;
  /** The kinds this runner claims: a job of another kind waits for a process that knows it. */
  handlers: JobHandlers;
  now?: () => Date;
  /** Sleep between polls when nothing is due; default 1 s. */
  pollIntervalMs?: number;
  /**
   * How long a claim holds before another worker may take the job over. The worker renews it every third
   * of that while the job runs (a heartbeat), so a job may run longer; a dead worker's job is taken over
   * within this time. Default 60 s.
   */
  leaseMs?: number;
  /** Jobs run at the same time by this runner; default 1. */
  concurrency?: number;
  backoff?: BackoffOptions;
  /** The longest `stop()` waits for the jobs in progress; default 30 s. */
  stopTimeoutMs?: number;
}

export interface JobRunner {
  /** Starts the poll loops (once). */
  start(): void;
  /** Claims no more jobs, waits (up to stopTimeoutMs) for the ones in progress, then resolves. */
  stop(): Promise<void>;
  /** Claims and runs one due job; false when none was due. */
  runOnce(): Promise<boolean>;
  /** Runs due jobs until none is left; returns how many ran. For tests and scripts. */
  drain(): Promise<number>;
}

/** A runner over `db` for the given handlers; nothing runs before `start()` (or `runOnce`/`drain`). */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, logger, handlers, now = () => new Date(), pollIntervalMs = 1000, leaseMs = 60_000 } = options;
  const { concurrency = 1, backoff, stopTimeoutMs = 30_000 } = options;
  const kinds = Object.keys(handlers);
  let state: 'idle' | 'running' | 'stopping' = 'idle';
  let loops: Promise<void>[] = [];
  let stopping: Promise<void> | undefined;
  const wakers = new Set<() => void>();

  // A sleep that stop() cuts short. Unref'd: an idle runner alone does not keep the process alive.
  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      wakers.add(wake);
    });
  }

  async function execute(job: JobRow): Promise<void> {
    const log = logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    const startedAt = Date.now();
    // Taken over after the worker of its last allowed attempt died: running it again could kill this one too.
    if (job.attempts > job.maxAttempts) {
      const held = await recordFailure(db, job, 'The worker of its last attempt stopped before finishing (lease expired)', null, now());
      if (!held) return;
      log.error('job failed: lease expired on its last attempt');
      const onExhausted = handlers[job.kind]?.onExhausted;
      await onExhausted?.(job.payload, { db, log, now, job, enqueueOnSuccess: () => undefined }).catch((err: unknown) =>
        log.error({ err: loggableError(err) }, 'job failed: settling its records failed'),
      );
      return;
    }
    const followUps: EnqueueInput[] = [];
    const heartbeat = setInterval(() => {
      renewLease(db, job, new Date(now().getTime() + leaseMs), now()).then(
        (held) => held || log.warn('job lease was taken over while it ran'),
        (err: unknown) => log.warn({ err }, 'job lease renewal failed'),
      );
    }, Math.max(1, Math.floor(leaseMs / 3)));
    // A job stuck past stop()'s timeout must not keep the process alive.
    heartbeat.unref();
    try {
      const handler = handlers[job.kind];
      if (!handler) throw new Error(`No handler for job kind ${job.kind}`);
      await handler(job.payload, { db, log, now, job, enqueueOnSuccess: (input) => followUps.push(input) });
    } catch (caught) {
      clearInterval(heartbeat);
      const err = loggableError(caught);
      const message = err instanceof Error ? err.message : ((err as { message?: string }).message ?? String(err));
      const retryAt = job.attempts < job.maxAttempts ? new Date(now().getTime() + backoffMs(job.attempts, backoff)) : null;
      const held = await recordFailure(db, job, message, retryAt, now());
      if (!held) log.warn({ err }, 'job failed after its lease was taken over; the new holder decides');
      else if (retryAt) log.warn({ err, retryAt }, 'job failed; will retry');
      else log.error({ err }, 'job failed for good');
      return;
    }
    clearInterval(heartbeat);
    const held = await completeJob(db, job, followUps, now());
    if (held) log.info({ durationMs: Date.now() - startedAt }, 'job done');
    else log.warn('job finished after its lease was taken over; the new holder decides');
  }

  async function runOnce(): Promise<boolean> {
    if (kinds.length === 0) return false;
    const job = await claimJob(db, kinds, now(), leaseMs);
    if (!job) return false;
    await execute(job);
    return true;
  }

  // Never rejects: a database error is logged and the next tick tries again (a job whose outcome could
  // not be recorded stays running until its lease expires, then is taken over).
  async function loop(): Promise<void> {
    while (state === 'running') {
      let ran = false;
      try {
        ran = await runOnce();
      } catch (err) {
        logger.error({ err }, 'job runner: database error, retrying');
      }
      if (!ran && state === 'running') await sleep(pollIntervalMs);
    }
  }

  return {
    start() {
      if (state !== 'idle') return;
      state = 'running';
      loops = Array.from({ length: Math.max(1, concurrency) }, () => loop());
    },
    stop() {
      stopping ??= (async () => {
        state = 'stopping';
        for (const wake of [...wakers]) wake();
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), stopTimeoutMs);
        });
        const late = await Promise.race([Promise.all(loops).then(() => false), timedOut]);
        clearTimeout(timer);
        // The job keeps its lease; once the lease expires another worker takes it over.
        if (late) logger.warn({ stopTimeoutMs }, 'job runner stopped before the job in progress finished');
      })();
      return stopping;
    },
    runOnce,
    async drain() {
      let ran = 0;
      while (await runOnce()) ran++;
      return ran;
    },
  };
}
