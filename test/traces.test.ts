// Traces for operators: with OTEL_EXPORTER_OTLP_ENDPOINT set, createDocsApi sends OpenTelemetry spans over
// OTLP/HTTP (JSON) to a receiver started here, in this process. Requests through both adapters (the
// standalone server's handler and the API mounted in a host Express app) each give one SERVER span named by
// the operation's route template, with its operationId and status, and under it (same trace, parent = the
// request's span) the database statements' CLIENT spans, on the suite's storage (PGlite on its thread and
// PGlite on the server's thread, or PostgreSQL). No attribute holds the token, a query parameter's value or
// a value sent to the database.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../server/app.js';
import { createScratchDatabase, type ScratchDatabase } from '../server/db/scratch-database.js';
import { createDocsApi, type DocsApi } from '../server/index.js';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import { sampledBy, samplerOf } from '../server/telemetry/tracing.js';
import { statementSpanName, summarizeStatement } from '../server/telemetry/statement-summary.js';

/** A span as OTLP/JSON carries it (ids in hex), with its attributes as a plain record. */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  serviceName: string;
}

const SERVER = 2;
const CLIENT = 3;

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? ''));
  }
  return out;
}

/** An OTLP/HTTP receiver: collects the spans of every JSON export POSTed to /v1/traces. */
async function startReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[]; contentTypes: string[] }> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.statusCode = 404;
        res.end();
        return;
      }
      contentTypes.push(String(req.headers['content-type']));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: (Omit<ReceivedSpan, 'attributes' | 'serviceName'> & { attributes: OtlpAttribute[] })[] }[] }[];
      };
      for (const resourceSpans of body.resourceSpans) {
        const serviceName = String(attributesOf(resourceSpans.resource.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) spans.push({ ...span, attributes: attributesOf(span.attributes), serviceName });
        }
      }
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, contentTypes };
}

describe('statement summaries', () => {
  it('name a statement by its verb and first table, or by its prepared name', () => {
    expect(statementSpanName(summarizeStatement('select "id", "title" from "spaces" where "spaces"."id" = $1'))).toBe('SELECT spaces');
    expect(statementSpanName(summarizeStatement('insert into "change_requests" ("id") values ($1) returning "id"'))).toBe('INSERT change_requests');
    expect(statementSpanName(summarizeStatement('update "jobs" set "status" = $1 where "id" = $2'))).toBe('UPDATE jobs');
    expect(statementSpanName(summarizeStatement('delete from drizzle.__drizzle_migrations where id = $1'))).toBe('DELETE drizzle.__drizzle_migrations');
    expect(statementSpanName(summarizeStatement('SELECT extract(epoch from now()) AS t'))).toBe('SELECT');
    expect(statementSpanName(summarizeStatement('BEGIN'))).toBe('BEGIN');
    expect(statementSpanName(summarizeStatement('SELECT s.id FROM spaces s WHERE s.id = $1'), 'space_access')).toBe('space_access');
  });
});

// PGlite runs on its own thread by default and on the server's with PGLITE_THREAD=false: both are traced.
const storageKinds = process.env.DATABASE_URL ? ['postgres'] : ['pglite thread', 'pglite in-process'];

describe.each(storageKinds)('traces over OTLP/HTTP (%s)', (storageKind) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let api: DocsApi;
  let standalone: App;
  let host: express.Express;
  let token: string;
  let organizationId: string;
  let scratch: ScratchDatabase | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    receiver = await startReceiver();
    const adminUrl = process.env.DATABASE_URL;
    const template = inject('postgresTemplate');
    let storage;
    if (adminUrl && template) {
      scratch = await createScratchDatabase(adminUrl, { prefix: 'dwapi_traces', template });
      storage = { kind: 'postgres' as const, url: scratch.url };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'dwapi-traces-'));
      // The migrated template (test/support/global-setup.ts), as child-server.ts starts from: initdb and every
      // migration in WebAssembly, for each of the two storages, were 15 of the file's 16 s.
      execFileSync('tar', ['xf', inject('pgliteTemplate'), '-C', dataDir]);
      storage = { kind: 'pglite' as const, dataDir, thread: storageKind === 'pglite thread' };
    }
    api = createDocsApi({
      env: { PUBLIC_URL: 'https://api.example', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'traces-test', OTEL_BSP_SCHEDULE_DELAY: '50' },
      config: { storage },
      logger: pino({ level: 'silent' }),
    });
    const started = await api.start();
    token = started.bootstrap!.token!;
    organizationId = started.bootstrap!.organizationId;
    standalone = started.app;
    host = express();
    host.use('/api/v1', api.handler);
  }, 180_000);

  afterAll(async () => {
    await api?.stop();
    receiver?.server.close();
    await scratch?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The SERVER span of the request whose trace is `traceId` (each request below sends its own `traceparent`), once exported. */
  async function serverSpanOf(traceId: string): Promise<ReceivedSpan> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = receiver.spans.find((s) => s.traceId === traceId && s.kind === SERVER);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no server span of trace ${traceId} among ${receiver.spans.length} received`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  let traceCount = 0;
  /** A fresh W3C trace context: the request's span must join it. */
  function traceparent() {
    traceCount++;
    const traceId = `${{ postgres: 'b', 'pglite thread': 'a', 'pglite in-process': 'd' }[storageKind]}${String(traceCount).padStart(31, '0')}`;
    const parentSpanId = `c${String(traceCount).padStart(15, '0')}`;
    return { traceId, parentSpanId, header: `00-${traceId}-${parentSpanId}-01` };
  }

  it(`gives each request one server span, named by its route, with its database spans under it (${storageKind})`, async () => {
    const querySecret = 'query-value-never-in-a-span';
    const valueSecret = 'sql-value-never-in-a-span';
    const write = traceparent();
    const created = await request(standalone)
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set('Authorization', `Bearer ${token}`)
      .set('traceparent', write.header)
      .send({ title: valueSecret });
    expect(created.status).toBe(201);
    const spaceId = created.body.id as string;

    const read = traceparent();
    const got = await request(standalone).get(`/v1/spaces/${spaceId}?probe=${querySecret}`).set('Authorization', `Bearer ${token}`).set('traceparent', read.header);
    expect(got.status).toBe(200);

    const missing = traceparent();
    const notFound = await request(standalone).get('/v1/spaces/no-such-space').set('Authorization', `Bearer ${token}`).set('traceparent', missing.header);
    expect(notFound.status).toBe(404);

    // The same pipeline through the other adapter: mounted in a host app.
    const mounted = traceparent();
    const mountedRead = await request(host).get(`/api/v1/spaces/${spaceId}`).set('Authorization', `Bearer ${token}`).set('traceparent', mounted.header);
    expect(mountedRead.status).toBe(200);

    // A path served without a token, by its own route (contract/downloads.ts): its span comes the same way.
    const document = traceparent();
    const documentRead = await request(standalone).get('/v1/openapi.json').set('traceparent', document.header);
    expect(documentRead.status).toBe(200);
    const documentSpan = await serverSpanOf(document.traceId);
    expect(documentSpan.name).toBe('GET /openapi.json');
    expect(documentSpan.attributes).toMatchObject({ 'operation.id': 'getOpenAPIDocument', 'http.route': '/openapi.json', 'http.response.status_code': 200 });

    const expected = [
      { trace: write, name: 'POST /orgs/{organizationId}/spaces', operationId: 'createSpace', method: 'POST', status: 201 },
      { trace: read, name: 'GET /spaces/{spaceId}', operationId: 'getSpaceById', method: 'GET', status: 200 },
      { trace: missing, name: 'GET /spaces/{spaceId}', operationId: 'getSpaceById', method: 'GET', status: 404 },
      { trace: mounted, name: 'GET /spaces/{spaceId}', operationId: 'getSpaceById', method: 'GET', status: 200 },
    ];
    for (const { trace, name, operationId, method, status } of expected) {
      const span = await serverSpanOf(trace.traceId);
      expect(span.name).toBe(name);
      expect(span.serviceName).toBe('traces-test');
      expect(span.parentSpanId).toBe(trace.parentSpanId); // the caller's traceparent was followed
      expect(span.attributes).toMatchObject({
        'operation.id': operationId,
        'http.request.method': method,
        'http.route': name.slice(method.length + 1),
        'http.response.status_code': status,
      });
      // Exactly one server span for the request.
      expect(receiver.spans.filter((s) => s.traceId === trace.traceId && s.kind === SERVER)).toHaveLength(1);
    }

    // Database spans: every one of them is a child of its request's span, in its trace.
    const deadline = Date.now() + 20_000;
    const dbSpansOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId && s.kind === CLIENT);
    while (expected.some(({ trace }) => dbSpansOf(trace.traceId).length === 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const { trace } of expected) {
      const server = await serverSpanOf(trace.traceId);
      const dbSpans = dbSpansOf(trace.traceId);
      expect(dbSpans.length, `database spans of ${server.name} (${server.attributes['http.response.status_code']})`).toBeGreaterThan(0);
      for (const span of dbSpans) {
        expect(span.parentSpanId).toBe(server.spanId);
        expect(span.attributes['db.system']).toBe('postgresql');
        expect(span.attributes['db.system.name']).toBe('postgresql');
        expect(span.name).toMatch(/^([A-Z]+( [\w.]+)?|[a-z_]\w*)$/); // a verb and a table, or a prepared statement's name
      }
    }
    // The write wrote in a transaction, its BEGIN and COMMIT traced too (PGlite on the server's thread sends them
    // itself, so they are measured around its transaction); the read ran the hot path's prepared statement.
    const written = dbSpansOf(write.traceId).map((s) => s.name);
    expect(written).toContain('INSERT spaces');
    expect(written.indexOf('BEGIN')).toBeGreaterThanOrEqual(0);
    expect(written.indexOf('BEGIN')).toBeLessThan(written.indexOf('INSERT spaces'));
    expect(written.indexOf('COMMIT')).toBeGreaterThan(written.indexOf('INSERT spaces'));

    expect(dbSpansOf(read.traceId).map((s) => s.name)).toContain('grant_spaceWithCounters');

    // Nothing secret anywhere: no token, no query value, no value written to the database (nor its id), in
    // any span's name or attribute.
    const everything = JSON.stringify(receiver.spans);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(querySecret);
    expect(everything).not.toContain(valueSecret);
    expect(everything).not.toContain(spaceId);
    expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
  }, 60_000);

  it(`sends no span for a request its caller did not sample (${storageKind})`, async () => {
    const unsampled = traceparent();
    const skipped = await request(standalone).get('/v1/openapi.json').set('Authorization', `Bearer ${token}`).set('traceparent', unsampled.header.replace(/-01$/, '-00'));
    expect(skipped.status).toBe(200);
    // A sampled request after it: once its span is exported, the unsampled one would have been too.
    const sampled = traceparent();
    const read = await request(standalone).get('/v1/openapi.json').set('traceparent', sampled.header);
    expect(read.status).toBe(200);
    await serverSpanOf(sampled.traceId);
    expect(receiver.spans.filter((s) => s.traceId === unsampled.traceId)).toHaveLength(0);
  }, 60_000);
});

describe('OTEL_TRACES_SAMPLER', () => {
  const decide = (name: Parameters<typeof samplerOf>[0], ratio: number, traceId: string) =>
    samplerOf(name, ratio).shouldSample(ROOT_CONTEXT, traceId, 'GET /x', SpanKind.SERVER, {}, []).decision;
  const traceIds = Array.from({ length: 1000 }, () => Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join(''));

  it('samples the share of root requests OTEL_TRACES_SAMPLER_ARG says', () => {
    const sampled = (ratio: number) => traceIds.filter((id) => decide('parentbased_traceidratio', ratio, id) === SamplingDecision.RECORD_AND_SAMPLED).length;
    expect(sampled(0)).toBe(0);
    expect(sampled(1)).toBe(1000);
    expect(sampled(0.5)).toBeGreaterThan(400);
    expect(sampled(0.5)).toBeLessThan(600);
    expect(traceIds.filter((id) => decide('always_off', 1, id) === SamplingDecision.RECORD_AND_SAMPLED)).toHaveLength(0);
  });

  // The server decides before starting a span (sampledBy), as the sampler would on the span's trace id.
  it('decides a request before its span: the share of root requests, the parent\'s flag under a parent', () => {
    const roots = (name: Parameters<typeof samplerOf>[0], ratio: number) => {
      const sampled = sampledBy(name, ratio);
      return Array.from({ length: 1000 }, () => sampled(ROOT_CONTEXT, 'GET /x')).filter(Boolean).length;
    };
    expect(roots('parentbased_traceidratio', 0)).toBe(0);
    expect(roots('parentbased_traceidratio', 1)).toBe(1000);
    expect(roots('parentbased_traceidratio', 0.1)).toBeGreaterThan(50);
    expect(roots('parentbased_traceidratio', 0.1)).toBeLessThan(150);
    expect(roots('always_on', 0)).toBe(1000);
    expect(roots('always_off', 1)).toBe(0);
    const under = (traceFlags: TraceFlags) =>
      trace.setSpanContext(ROOT_CONTEXT, { traceId: traceIds[0], spanId: '0123456789abcdef', traceFlags, isRemote: true });
    // parentbased_*: the caller's flag, whatever the ratio; traceidratio alone ignores it.
    expect(sampledBy('parentbased_traceidratio', 0)(under(TraceFlags.SAMPLED), 'GET /x')).toBe(true);
    expect(sampledBy('parentbased_traceidratio', 1)(under(TraceFlags.NONE), 'GET /x')).toBe(false);
    expect(sampledBy('parentbased_always_off', 1)(under(TraceFlags.SAMPLED), 'GET /x')).toBe(true);
    expect(sampledBy('traceidratio', 1)(under(TraceFlags.NONE), 'GET /x')).toBe(true);
    expect(sampledBy('traceidratio', 0)(under(TraceFlags.SAMPLED), 'GET /x')).toBe(false);
  });
});
