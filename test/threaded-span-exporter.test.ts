// The traces' exporter that sends from a thread of its own (server/telemetry/threaded-span-exporter.ts): the
// batches reach the collector as OTLP/JSON with the configured headers, the spans still held are sent on
// shutdown, and a collector's refusal comes back as a failed export instead of hanging.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { AlwaysOnSampler, BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { ThreadedSpanExporter } from '../server/telemetry/threaded-span-exporter.js';

/** A collector answering `status` to every export, keeping the span names and the headers it was sent. */
async function collector(status: number) {
  const names: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      headers.push(req.headers);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] };
      for (const r of body.resourceSpans) for (const s of r.scopeSpans) names.push(...s.spans.map((span) => span.name));
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, names, headers };
}

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

describe('the threaded span exporter', () => {
  it('sends the spans a batch still holds when the provider shuts down, with the configured headers', async () => {
    const { server, url, names, headers } = await collector(200);
    servers.push(server);
    const exporter = new ThreadedSpanExporter({ url, headers: { authorization: 'Bearer collector-key' } });
    // An hour's delay: nothing is sent before the shutdown.
    const provider = new TracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 3_600_000 })] });
    const tracer = provider.getTracer('test');
    for (const name of ['first', 'second', 'third']) tracer.startSpan(name).end();
    expect(names).toEqual([]);
    await provider.shutdown();
    expect(names.sort()).toEqual(['first', 'second', 'third']);
    expect(headers[0]!.authorization).toBe('Bearer collector-key');
    expect(headers[0]!['content-type']).toMatch(/^application\/json/);
  });

  it("reports a collector's refusal as a failed export", async () => {
    const { server, url, names } = await collector(400);
    servers.push(server);
    const exporter = new ThreadedSpanExporter({ url });
    const provider = new TracerProvider({ sampler: new AlwaysOnSampler() });
    const span = provider.getTracer('test').startSpan('refused');
    span.end();
    const result = await new Promise<ExportResult>((resolve) => exporter.export([span as never], resolve));
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(names).toEqual(['refused']);
    await exporter.shutdown();
    // Once shut down, an export fails at once.
    const after = await new Promise<ExportResult>((resolve) => exporter.export([span as never], resolve));
    expect(after.code).toBe(ExportResultCode.FAILED);
  });
});
