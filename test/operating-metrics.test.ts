// GET /metrics: Prometheus text with the request histogram by operation, requests in flight, the database
// pool (PostgreSQL) or the PGlite thread's queue, the jobs table, rate-limit refusals and process metrics;
// METRICS_TOKEN required when set; not in the request log. And the logs: pretty on a terminal, JSON otherwise.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { enqueueJob } from '../server/jobs/queue.js';
import { createMetrics } from '../server/operating/metrics.js';
import { createRateLimiter } from '../server/operating/rate-limit.js';
import { send } from './support/api.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
const onPostgres = Boolean(process.env.DATABASE_URL);
const METRICS_TOKEN = 'metrics-token-0123456789';

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** The value of the sample `name{labels}` on the page (labels as written, in prom-client's order). */
function sample(page: string, series: string): number | undefined {
  const line = page.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('serves Prometheus metrics to the METRICS_TOKEN only, measuring requests by operation, method and status', async () => {
    const { logger, lines } = capturingLogger();
    const metrics = createMetrics({ db: h.current.db, logger });
    const limiter = createRateLimiter({ perMinute: 2 });
    const app = createApp({ db: h.current.db, logger, publicUrl: 'https://api.test.example', metrics, metricsToken: METRICS_TOKEN, rateLimiter: limiter });
    const ada = await h.current.newAdmin();
    expect((await send(app, 'get', '/v1/user', { token: ada.token })).status).toBe(200);
    expect((await send(app, 'get', '/v1/orgs/org_missing', { token: ada.token })).status).toBe(404);
    expect((await send(app, 'get', '/v1/user', { token: ada.token })).status).toBe(429);

    expect((await request(app).get('/metrics')).status).toBe(401);
    expect((await request(app).get('/metrics').set('Authorization', 'Bearer metrics-token-wrong-456789')).status).toBe(401);
    expect((await request(app).get('/metrics').set('Authorization', `Bearer ${ada.token}`)).status).toBe(401);
    const res = await request(app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const page = res.text;
    expect(sample(page, 'http_request_duration_seconds_count{operation="getAuthenticatedUser",method="GET",status="200"}')).toBe(1);
    expect(sample(page, 'http_request_duration_seconds_count{operation="getOrganizationById",method="GET",status="404"}')).toBe(1);
    // Refused before reaching an operation: no operation id.
    expect(sample(page, 'http_request_duration_seconds_count{operation="",method="GET",status="429"}')).toBe(1);
    expect(sample(page, 'rate_limit_refusals_total')).toBe(1);
    expect(sample(page, 'http_requests_in_flight')).toBe(0);
    expect(page).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(page).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(page).toMatch(/^process_resident_memory_bytes \d/m);
    // The metrics page is neither measured nor logged; the API's requests are.
    expect(page).not.toContain('/metrics');
    expect(lines.filter((l) => l.msg === 'request').map((l) => l.path)).toEqual(['/v1/user', '/v1/orgs/org_missing', '/v1/user']);
    await limiter.close();
  });

  it('shows the jobs by kind and state and how long the oldest due job has waited', async () => {
    const metrics = createMetrics({ db: h.current.db, processMetrics: false });
    const app = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: 'https://api.test.example', metrics });
    const now = new Date();
    await enqueueJob(h.current.db, { kind: 'metrics-test-job', runAt: new Date(now.getTime() - 90_000) }, now);
    await enqueueJob(h.current.db, { kind: 'metrics-test-job', runAt: new Date(now.getTime() - 30_000) }, now);
    await enqueueJob(h.current.db, { kind: 'metrics-test-job', runAt: new Date(now.getTime() + 3_600_000) }, now);
    // No METRICS_TOKEN: open.
    const page = (await request(app).get('/metrics').expect(200)).text;
    expect(sample(page, 'jobs{kind="metrics-test-job",state="queued"}')).toBe(3);
    const oldest = sample(page, 'jobs_oldest_due_seconds')!;
    expect(oldest).toBeGreaterThanOrEqual(89);
    expect(oldest).toBeLessThan(600);
    if (onPostgres) {
      expect(sample(page, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(page).toMatch(/^db_pool_connections\{state="idle"\} \d+$/m);
      expect(sample(page, 'db_pool_waiting_clients')).toBe(0);
    } else {
      expect(sample(page, 'pglite_queued_queries')).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('server logs', () => {
  const script = `
    import { createServerLogger } from './server/operating/logger.ts';
    const { logger, flushSync } = createServerLogger('info', { terminal: process.argv[1] === 'terminal' });
    logger.info({ port: 3000 }, 'listening');
    flushSync();
  `;
  const run = (mode: string) =>
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, mode], { cwd: path.resolve(import.meta.dirname, '..'), encoding: 'utf8' });

  it('writes pretty, coloured lines on a terminal and JSON lines otherwise', () => {
    const pretty = run('terminal');
    expect(pretty).toContain('\u001b['); // ANSI colours
    expect(pretty).toMatch(/INFO.*listening/);
    expect(pretty.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/\n\s+port: 3000\n/); // fields on lines of their own
    expect(() => JSON.parse(pretty)).toThrow();
    const json = JSON.parse(run('pipe'));
    expect(json).toMatchObject({ level: 30, msg: 'listening', port: 3000 });
  });
});
