// Behaviour every operation shares: authentication, body parsing, unknown routes, CORS, unexpected errors.
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractOperations } from '../contract/index.js';
import { DEFAULT_MAX_BODY_BYTES, type Operation } from '../contract/operation.js';
import { createApp } from '../server/app.js';
import { createDb } from '../server/db/client.js';
import { routes } from '../generated/router.js';
import { errorMiddleware } from '../server/http/errors.js';
import { notImplemented } from '../server/http/not-implemented.js';
import { parse } from 'yaml';
import { send } from './support/api.js';
import { findOperation, schemaProblems } from './support/spec.js';
import { useHarness } from './support/harness.js';
import { drainOpenAPIJobs } from './support/matrix/openapi.js';

const h = useHarness();

/** A concrete path for an operation, with a placeholder for every path parameter. */
function concrete(path: string) {
  return `/v1${path.replace(/\{[^}]+\}/g, 'x1')}`;
}

const operations: [string, Operation][] = Object.entries(contractOperations);
const withBody = operations.filter(([, op]) => op.body);
const withPathParams = operations.filter(([, op]) => op.params);

describe('shared HTTP behaviour', () => {
  // The per-operation cases are one test each (all operations in a loop, every miss listed), not one
  // test per operation: they prove the same thing, and the count of tests stays meaningful. Each loop
  // makes one request per operation (about 170), hence their longer timeout.

  /** Runs `check` for every operation given and fails listing the ones that answered otherwise. */
  async function everyOperation(ops: [string, Operation][], check: (id: string, op: Operation) => Promise<string | undefined>) {
    const misses: string[] = [];
    for (const [id, op] of ops) {
      const miss = await check(id, op);
      if (miss) misses.push(`${id}: ${miss}`);
    }
    expect(misses).toEqual([]);
    expect(ops.length).toBeGreaterThan(0);
  }

  it('every operation returns 401 without a valid token', async () => {
    await everyOperation(operations, async (_id, op) => {
      const res = await send(h.current.app, op.method, concrete(op.path), { token: 'dwt_wrong' });
      return res.status === 401 && res.body.error.code === 401 ? undefined : `${res.status} ${JSON.stringify(res.body)}`;
    });
  }, 120_000);

  it('every operation with a body returns 415 for a body that is not JSON', async () => {
    const admin = await h.current.newAdmin();
    await everyOperation(withBody, async (_id, op) => {
      const res = await send(h.current.app, op.method, concrete(op.path), { token: admin.token, raw: { data: 'title=x', contentType: 'text/plain' } });
      return res.status === 415 ? undefined : `${res.status} ${JSON.stringify(res.body)}`;
    });
  }, 120_000);

  it('every operation with a body returns 413 for a body over its size limit', async () => {
    const admin = await h.current.newAdmin();
    await everyOperation(withBody, async (_id, op) => {
      const data = JSON.stringify({ title: 'x'.repeat((op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) + 1) });
      const res = await send(h.current.app, op.method, concrete(op.path), { token: admin.token, raw: { data, contentType: 'application/json' } });
      return res.status === 413 ? undefined : `${res.status} ${JSON.stringify(res.body)}`;
    });
  }, 120_000);

  it('an operation with a larger size limit accepts a body over 1 MiB, stores and reads it back whole', async () => {
    const admin = await h.current.newAdmin();
    const description = 'x'.repeat(2 * 1024 * 1024);
    const text = `openapi: 3.1.0\ninfo:\n  title: Big\n  version: 1.0.0\n  description: ${description}\npaths: {}\n`;
    const created = await send(h.current.app, 'post', `/v1/orgs/${admin.organizationId}/openapi`, { token: admin.token, body: { slug: 'big-spec', source: { text } } });
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    expect(created.body.slug).toBe('big-spec');
    await drainOpenAPIJobs(h.current, 20_000);
    const content = await send(h.current.app, 'get', `/v1/orgs/${admin.organizationId}/openapi/big-spec/versions/latest/content`, { token: admin.token });
    expect(content.status).toBe(200);
    expect(content.body.filesystem['openapi.yaml'].info.description).toBe(description);
  }, 60_000);

  it('every operation with path parameters returns 400 naming one that is too long', async () => {
    const admin = await h.current.newAdmin();
    await everyOperation(withPathParams, async (_id, op) => {
      const res = await send(h.current.app, op.method, `/v1${op.path.replace(/\{[^}]+\}/g, 'x'.repeat(300))}`, {
        token: admin.token,
        ...(op.body && { body: op.bodyExample }),
      });
      return res.status === 400 && /params\.\w+: /.test(res.body.error?.message) ? undefined : `${res.status} ${JSON.stringify(res.body)}`;
    });
  }, 120_000);

  it('an operation no area implements answers 501 with the error body', async () => {
    // A stub as server/handlers.ts computes them, behind the real error middleware. Not through `send`:
    // 501 is deliberately not part of the published contract.
    const app = express();
    const stub = notImplemented(['listSites']).listSites;
    app.get('/stub', async () => stub({} as never, {} as never));
    app.use(errorMiddleware(pino({ level: 'silent' })));
    const res = await request(app).get('/stub');
    expect(res.status).toBe(501);
    expect(res.body).toEqual({ error: { code: 501, message: 'listSites has no handler in this server' } });
  });

  it('routes a literal path segment before a parameter: /versions/latest is not a version id', () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    const latest = paths.indexOf('get /orgs/:organizationId/openapi/:specSlug/versions/latest');
    const byId = paths.indexOf('get /orgs/:organizationId/openapi/:specSlug/versions/:versionId');
    expect(latest).toBeGreaterThanOrEqual(0);
    expect(latest).toBeLessThan(byId);
  });

  it('a malformed JSON body returns 400', async () => {
    const admin = await h.current.newAdmin();
    const res = await send(h.current.app, 'post', `/v1/orgs/${admin.organizationId}/spaces`, {
      token: admin.token,
      raw: { data: '{"title": ', contentType: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('JSON');
  });

  it('serves its document as YAML text, a string of application/yaml as its schema says, holding the JSON document', async () => {
    const yamlRes = await request(h.current.app).get('/v1/openapi.yaml').buffer(true).parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => done(null, text));
    });
    expect(yamlRes.status).toBe(200);
    expect(yamlRes.headers['content-type']).toMatch(/^application\/yaml/);
    const declared = findOperation('get', '/v1/openapi.yaml')!.responses['200'].content['application/yaml'];
    expect(declared.schema).toMatchObject({ type: 'string', contentMediaType: 'application/yaml' });
    expect(schemaProblems(declared.schema, yamlRes.body)).toEqual([]);
    expect(schemaProblems(declared.schema, parse(declared.example))).not.toEqual([]); // an object is not what it declares
    const jsonRes = await request(h.current.app).get('/v1/openapi.json');
    expect(jsonRes.status).toBe(200);
    expect(parse(yamlRes.body as string)).toEqual(jsonRes.body);
  });

  it('an unknown path returns 404 with the error body', async () => {
    const admin = await h.current.newAdmin();
    const res = await request(h.current.app).get('/v1/nothing-here').set('Authorization', `Bearer ${admin.token}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: 'No operation at GET /v1/nothing-here' } });
  });

  it('an unknown path is 404 with or without a token: the route table is public', async () => {
    const res = await request(h.current.app).get('/v1/spaces/spc_1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: 'No operation at GET /v1/spaces/spc_1/nothing-here' } });
  });

  it('a path parameter with a malformed percent escape returns 400 naming it', async () => {
    const admin = await h.current.newAdmin();
    const res = await request(h.current.app).get('/v1/spaces/spc_%E0%A4%A').set('Authorization', `Bearer ${admin.token}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: 'Invalid request: params: spaceId: malformed percent-encoding in the path' } });
  });

  it('serves operations whatever the case of the path, with a trailing slash, and HEAD as GET without a body', async () => {
    const admin = await h.current.newAdmin();
    const upper = await request(h.current.app).get('/V1/USER/').set('Authorization', `Bearer ${admin.token}`);
    expect(upper.status).toBe(200);
    expect(upper.body.id).toBe(admin.userId);
    const head = await request(h.current.app).head('/v1/user').set('Authorization', `Bearer ${admin.token}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(upper.body)));
  });

  it('answers 405 with Allow for a known path asked with a method it does not serve', async () => {
    const admin = await h.current.newAdmin();
    const res = await request(h.current.app).put('/v1/user').set('Authorization', `Bearer ${admin.token}`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.body).toEqual({ error: { code: 405, message: 'PUT is not allowed on /user; allowed: GET' } });
  });

  it('answers CORS preflights and exposes Location', async () => {
    const res = await request(h.current.app).options('/v1/user').set('Origin', 'https://app.example.com').set('Access-Control-Request-Method', 'GET');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('logs each request with its operation but never the token', async () => {
    const admin = await h.current.newAdmin();
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const app = createApp({ db: h.current.db, logger, publicUrl: 'https://x.example' });
    const res = await send(app, 'get', '/v1/user', { token: admin.token });
    expect(res.status).toBe(200);
    const log = lines.join('');
    expect(log).toContain('"operationId":"getAuthenticatedUser"');
    expect(log).not.toContain(admin.token);
  });

  // Past the token lookup and the access rule: the handler's own query fails (its table is gone for the
  // length of the request), the client gets a bare 500 and the log keeps where and how it failed.
  it('a database failure inside a handler returns 500 without internals, and logs them', async () => {
    const admin = await h.current.newAdmin();
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    // Every read made anew: renaming a table is no write, so the answers held for reads (read-cache.ts) hear nothing of it.
    const app = createApp({ db: h.current.db, logger, publicUrl: 'https://x.example', cacheReads: false });
    // The organizations of an email domain: an operation on the caller, with no grant, so its one statement is the handler's.
    const domainOrgs = '/v1/email-domains/example.com/orgs';
    expect((await send(app, 'get', domainOrgs, { token: admin.token })).status).toBe(200); // authenticated, allowed, answered
    await h.current.db.execute(sql`ALTER TABLE organizations RENAME TO organizations_gone`);
    try {
      const res = await send(app, 'get', domainOrgs, { token: admin.token, expectServerError: true });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: { code: 500, message: 'An unexpected error occurred' } });
      expect(JSON.stringify(res.headers)).not.toMatch(/organizations|relation/);
      // The log names the failed query, its SQLSTATE (undefined table) and where it was sent from; the
      // database's message stays out of it, as it may quote a value.
      expect(lines.join('')).toMatch(/Failed query: select .*SQLSTATE 42P01.*organization-membership\.store\.ts/);
    } finally {
      await h.current.db.execute(sql`ALTER TABLE organizations_gone RENAME TO organizations`);
    }
    expect((await send(app, 'get', domainOrgs, { token: admin.token })).status).toBe(200);
  });

  describe('with a database that fails', () => {
    let app: ReturnType<typeof createApp>;
    beforeAll(async () => {
      const broken = createDb({ kind: 'pglite' });
      await broken.close();
      app = createApp({ db: broken.db, logger: pino({ level: 'silent' }), publicUrl: 'https://x.example' });
    });

    // Fails at the token lookup, before any handler; test/fuzz.test.ts makes every handler fail past it.
    it('every operation returns 500 without internals', async () => {
      await everyOperation(operations, async (_id, op) => {
        const res = await send(app, op.method, concrete(op.path), { token: 'dwt_anything', expectServerError: true });
        const internals = JSON.stringify(res.body) !== JSON.stringify({ error: { code: 500, message: 'An unexpected error occurred' } });
        return res.status === 500 && !internals ? undefined : `${res.status} ${JSON.stringify(res.body)}`;
      });
    }, 120_000);
  });
});
