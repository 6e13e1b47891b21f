// GET /health and GET /ready (outside /v1, no token), and which database errors become a 503.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.js';
import { isDatabaseUnavailable } from '../server/db/client.js';
import { markDraining } from '../server/http/health.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('health and readiness', () => {
  it('answers /health without a token or the database, and /ready once the database answers with every migration applied', async () => {
    const health = await request(h.current.app).get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await request(h.current.app).get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('answers /ready 503 with the error body and Retry-After once the process drains', async () => {
    markDraining(h.current.app);
    const ready = await request(h.current.app).get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.body).toEqual({ error: { code: 503, message: 'The server is shutting down' } });
    expect((await request(h.current.app).get('/health')).status).toBe(200);
  });
});

describe('database errors answered 503', () => {
  const wrapped = (cause: Error) => Object.assign(new Error('Failed query: select 1'), { cause });
  it('recognizes an unreachable or unavailable database, also wrapped by Drizzle', () => {
    const unavailable = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })], ''),
    ];
    for (const err of unavailable) {
      expect({ message: err.message, unavailable: isDatabaseUnavailable(err) }).toEqual({ message: err.message, unavailable: true });
      expect(isDatabaseUnavailable(wrapped(err))).toBe(true);
    }
  });

  it('leaves query errors (constraint, syntax, plain bugs) to their own handling', () => {
    for (const err of [
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      new TypeError('x is undefined'),
      'a string',
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
  });
});

describe('operating configuration', () => {
  it('defaults the timeouts, pool and lease, and refuses bad values naming the variable', () => {
    expect(loadConfig({})).toMatchObject({
      allowPrivateFetch: false,
      shutdownTimeoutMs: 25_000,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      jobLeaseMs: 60_000,
      pool: { poolSize: 10, connectTimeoutMs: 5_000 },
    });
    expect(loadConfig({ ALLOW_PRIVATE_FETCH: 'true', SHUTDOWN_TIMEOUT_MS: '1000' })).toMatchObject({ allowPrivateFetch: true, shutdownTimeoutMs: 1000 });
    expect(() => loadConfig({ ALLOW_PRIVATE_FETCH: 'yes' })).toThrow(/ALLOW_PRIVATE_FETCH: must be true or false/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(/HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ DB_POOL_SIZE: '0' })).toThrow(/DB_POOL_SIZE: /);
  });
});
