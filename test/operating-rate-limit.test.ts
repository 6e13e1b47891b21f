// Rate limits per token (per address without a valid token): the headers on every /v1 answer, the 429 with
// Retry-After over the limit, the next minute starting afresh, and, on PostgreSQL, counts shared by the
// processes of one database.
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { queryRows } from '../server/db/client.js';
import { createRateLimiter } from '../server/operating/rate-limit.js';
import { send } from './support/api.js';
import { useHarness } from './support/harness.js';

const h = useHarness();
const onPostgres = Boolean(process.env.DATABASE_URL);

/** A clock the test moves: 10 s into a minute, so a few requests never cross into the next one. */
function testClock() {
  let time = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

function appWith(limiter: ReturnType<typeof createRateLimiter>) {
  return createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: 'https://api.test.example', rateLimiter: limiter });
}

describe('rate limits', () => {
  it('tells every answer its limit, remaining count and reset, and refuses the request over the limit with 429 and Retry-After', async () => {
    const clock = testClock();
    const limiter = createRateLimiter({ perMinute: 3, now: clock.now });
    const app = appWith(limiter);
    const ada = await h.current.newAdmin();
    const reset = String(Math.floor(clock.now() / 60_000) * 60 + 60);
    for (const remaining of ['2', '1', '0']) {
      const res = await send(app, 'get', '/v1/user', { token: ada.token });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      expect(res.headers['x-ratelimit-remaining']).toBe(remaining);
      expect(res.headers['x-ratelimit-reset']).toBe(reset);
    }
    // `send` also checks the 429 against the published document (declared, error body, headers).
    const refused = await send(app, 'get', `/v1/orgs/${ada.organizationId}`, { token: ada.token });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({ code: 429, message: 'Too many requests: at most 3 a minute; retry after 50 s' });
    expect(refused.headers['retry-after']).toBe('50');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // Refused requests are not counted, and another token has a budget of its own.
    const bob = await h.current.newAdmin();
    expect((await send(app, 'get', '/v1/user', { token: bob.token })).headers['x-ratelimit-remaining']).toBe('2');
    // The next minute starts afresh.
    clock.advance(60_000);
    const again = await send(app, 'get', '/v1/user', { token: ada.token });
    expect(again.status).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe('2');
    expect(again.headers['x-ratelimit-reset']).toBe(String(Number(reset) + 60));
    await limiter.close();
  });

  it('counts requests without a valid token by address: 401 with the headers, then 429', async () => {
    const limiter = createRateLimiter({ perMinute: 2, now: testClock().now });
    const app = appWith(limiter);
    const first = await send(app, 'get', '/v1/user', { token: 'not-a-token-of-anyone' });
    expect(first.status).toBe(401);
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    expect((await send(app, 'get', '/v1/user', {})).status).toBe(401);
    const refused = await send(app, 'get', '/v1/user', { token: 'another-bad-token' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('50');
    // A valid token is counted apart from its address.
    const ada = await h.current.newAdmin();
    expect((await send(app, 'get', '/v1/user', { token: ada.token })).status).toBe(200);
    await limiter.close();
  });

  it('leaves requests outside /v1 alone and sends no headers without a limiter', async () => {
    const limiter = createRateLimiter({ perMinute: 1, now: testClock().now });
    const app = appWith(limiter);
    for (let i = 0; i < 3; i++) expect((await request(app).get('/health')).status).toBe(200);
    const unlimited = createApp({ db: h.current.db, logger: pino({ level: 'silent' }), publicUrl: 'https://api.test.example' });
    const ada = await h.current.newAdmin();
    const res = await send(unlimited, 'get', '/v1/user', { token: ada.token });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    await limiter.close();
  });

  it('reads RATE_LIMIT_PER_MINUTE: 1200 by default, 0 for none, and refuses a negative one naming it', () => {
    expect(loadConfig({}).rateLimitPerMinute).toBe(1200);
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBe(0);
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
  });

  it.skipIf(!onPostgres)('shares the counts of every process through PostgreSQL', async () => {
    const clock = testClock();
    // Two limiters on one database stand for two server processes (the multi-process test runs real ones).
    const a = createRateLimiter({ perMinute: 10, now: clock.now, shared: h.current.db, syncIntervalMs: 60_000 });
    const b = createRateLimiter({ perMinute: 10, now: clock.now, shared: h.current.db, syncIntervalMs: 60_000 });
    for (let i = 0; i < 4; i++) expect(a.hit('token:shared-token').limited).toBe(false);
    for (let i = 0; i < 4; i++) expect(b.hit('token:shared-token').limited).toBe(false);
    await a.sync();
    await b.sync();
    // b has seen a's 4 requests: 2 left of 10 for both.
    expect(b.hit('token:shared-token').remaining).toBe(1);
    await b.sync();
    await a.sync();
    expect(a.hit('token:shared-token').remaining).toBe(0);
    expect(a.hit('token:shared-token').limited).toBe(true);
    await a.sync();
    await b.sync();
    expect(b.hit('token:shared-token').limited).toBe(true);
    // Only the token's hash is stored.
    const rows = await queryRows<{ key: string; count: number }>(h.current.db, sql`SELECT key, count FROM rate_limit_counts WHERE key LIKE 'token:%'`);
    expect(rows.map((r) => r.key)).toEqual([expect.stringMatching(/^token:[0-9a-f]{64}$/)]);
    expect(Number(rows[0].count)).toBe(10);
    await a.close();
    await b.close();
  });
});
