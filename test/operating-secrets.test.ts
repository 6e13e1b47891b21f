// Secrets stay out of error logs: a failed query's bound values (which may be anything a request
// carried, an integration's secrets included) are not logged by the error middleware or the job runner.
// The logs of the whole run are searched for the tokens it used by scripts/check-secrets.ts (npm test).
import { sql } from 'drizzle-orm';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loggableError } from '../server/db/client.js';
import { errorMiddleware } from '../server/http/errors.js';
import { createJobRunner } from '../server/jobs/runner.js';
import { enqueueJob } from '../server/jobs/queue.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
const SECRET = 'sk_live_do_not_log_7f3a';

function capture() {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return { logger, text: () => lines.join('') };
}

async function failingQuery(): Promise<unknown> {
  return h.current.db.execute(sql`SELECT ${SECRET}::int`).then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('secrets in error logs', () => {
  it('a failed query is logged with its SQL and SQLSTATE but without its parameters or the database message', async () => {
    const err = await failingQuery();
    expect(String((err as Error).message)).toContain(SECRET); // what would have leaked
    const safe = JSON.stringify(loggableError(err));
    expect(safe).not.toContain(SECRET);
    expect(safe).toContain('parameters not logged');
    expect(safe).toContain('SQLSTATE 22P02');
  });

  it('the error middleware answers 500 and logs no parameter of the failed query', async () => {
    const { logger, text } = capture();
    const app = express();
    app.get('/boom', async () => {
      throw await failingQuery();
    });
    app.use(errorMiddleware(logger));
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(text()).toContain('unexpected error');
    expect(text()).not.toContain(SECRET);
  });

  it('the job runner logs and records a failed job without the query parameters', async () => {
    const { logger, text } = capture();
    const runner = createJobRunner({ db: h.current.db, logger, handlers: { leaky: async () => void (await h.current.db.execute(sql`SELECT ${SECRET}::int`)) } });
    await enqueueJob(h.current.db, { kind: 'leaky', maxAttempts: 1 }, new Date());
    expect(await runner.drain()).toBe(1);
    expect(text()).toContain('job failed for good');
    expect(text()).not.toContain(SECRET);
    const rows = await h.current.db.execute(sql`SELECT last_error FROM jobs WHERE kind = 'leaky'`);
    const lastError = (rows as unknown as { rows: { last_error: string }[] }).rows[0].last_error;
    expect(lastError).toContain('parameters not logged');
    expect(lastError).not.toContain(SECRET);
  });
});
