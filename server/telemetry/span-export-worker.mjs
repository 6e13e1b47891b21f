// The traces' exporter thread (threaded-span-exporter.ts starts it and speaks for it on the server's thread):
// it sends each batch of spans, already serialized as OTLP/HTTP JSON on the server's thread, to the collector
// with OpenTelemetry's own OTLP/HTTP transport (retries, timeout, concurrency limit, headers, the
// OTEL_EXPORTER_OTLP_* settings). On its own thread because an HTTP client on the server's thread, streaming a
// body into a request, runs the very stream and HTTP functions the server's responses run with objects of
// other shapes, and V8 then compiles those functions again for both: measured, a 1 % sample cost a cached
// read 7–9 % (docs/benchmarks.md).
//
// Plain JavaScript on purpose: a worker thread loads this file with Node's own loader, which neither
// tsx nor vitest extends to new threads.
import { parentPort, workerData } from 'node:worker_threads';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';

/** A batch as the server's thread sends it: its JSON bytes and how many spans they hold (for the exporter's own metrics). */
const serializer = {
  serializeRequest: (batch) => batch.bytes,
  deserializeResponse: (bytes) => JsonTraceSerializer.deserializeResponse(bytes),
};
const metricsHelper = { name: 'span', countItems: (batch) => batch.spans };

const exporter = new OTLPExporterBase(
  createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url: workerData.url, headers: workerData.headers }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
    serializer,
    'otlp_http_span_exporter',
    metricsHelper,
    undefined,
  ),
);

parentPort.on('message', (message) => {
  if (message.kind === 'export') {
    exporter.export({ bytes: message.bytes, spans: message.spans }, (result) =>
      parentPort.postMessage({ kind: 'exported', id: message.id, code: result.code, error: result.error?.message }),
    );
  } else if (message.kind === 'flush') {
    exporter.forceFlush().then(
      () => parentPort.postMessage({ kind: 'flushed', id: message.id }),
      () => parentPort.postMessage({ kind: 'flushed', id: message.id }),
    );
  }
});
