// OpenTelemetry traces, sent over OTLP/HTTP (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT: one SERVER span per
// request of the API, named by its route template (`GET /spaces/{spaceId}`), and under it one CLIENT span
// per database statement it sends, on either storage. Loaded by a dynamic import only when configured
// (server/index.ts), so a server without traces loads none of this.
//
// The provider is the API's own, not registered globally: a host app's own OpenTelemetry setup (or none)
// is left alone, and each createDocsApi has its own. A request's span is kept in an AsyncLocalStorage for
// the statements sent on its behalf; statements outside a request (migrations, background jobs) are not
// traced. Its parent is the caller's `traceparent` header (W3C trace context), else whatever context is
// active (a host's own instrumentation, when it has a context manager).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { context, defaultTextMapGetter, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_SUMMARY,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { TraceSamplerName, TraceSettings } from '../config.js';
import type { QueryTracer } from '../db/query-trace.js';
import type { RequestTracer } from '../http/request-trace.js';
import { statementSpanName, summarizeStatement } from './statement-summary.js';

export interface Tracing {
  requests: RequestTracer;
  queries: QueryTracer;
  /** Sends the spans still held in the batch, then stops. */
  shutdown(): Promise<void>;
}

/** The attribute naming the contract's operation (no semantic convention has one for an OpenAPI operationId). */
export const ATTR_OPERATION_ID = 'operation.id';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** The SQLSTATE of a database error (never its message, which may quote a value), or its class name. */
function errorTypeOf(err: unknown): string {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  return err instanceof Error ? err.name : 'Error';
}

/** The SDK's sampler for OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG, as the OpenTelemetry specification defines them. */
export function samplerOf(name: TraceSamplerName, ratio: number): Sampler {
  const root = name.endsWith('always_on') ? new AlwaysOnSampler() : name.endsWith('always_off') ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

export function startTracing(settings: TraceSettings): Tracing {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    sampler: samplerOf(settings.sampler, settings.samplerRatio),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: settings.url, headers: settings.headers }),
        scheduledDelayMillis: settings.scheduleDelayMs,
      }),
    ],
  });
  const tracer = provider.getTracer('docs-workspace-api');
  const propagator = new W3CTraceContextPropagator();
  /** The context of the request being served (its span), for the statements sent on its behalf. */
  const requestContext = new AsyncLocalStorage<Context>();

  const requests: RequestTracer = {
    serve(req: IncomingMessage, res, route, serve) {
      const method = req.method && KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
      const parent = propagator.extract(context.active(), req.headers, defaultTextMapGetter);
      const span: Span = tracer.startSpan(
        route ? `${method === '_OTHER' ? 'HTTP' : method} ${route.template}` : method === '_OTHER' ? 'HTTP' : method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            [ATTR_HTTP_REQUEST_METHOD]: method,
            ...(route && { [ATTR_HTTP_ROUTE]: route.template, [ATTR_OPERATION_ID]: route.operationId }),
          },
        },
        parent,
      );
      // An unsampled request costs its sampling decision only: no listener, no context, and so no statement spans.
      if (!span.isRecording()) return serve();
      // 'close' follows 'finish', and comes alone when the client went away before the answer was sent.
      res.once('close', () => {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
        if (!res.writableFinished) span.setAttribute(ATTR_ERROR_TYPE, 'connection closed');
        // A server span's 4xx is the caller's error, not the server's (the semantic conventions' rule).
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      requestContext.run(trace.setSpan(parent, span), serve);
    },
  };

  const queries: QueryTracer = {
    start(text, name) {
      const parent = requestContext.getStore();
      if (!parent) return undefined;
      const summary = summarizeStatement(text);
      const spanName = statementSpanName(summary, name);
      const span = tracer.startSpan(
        spanName,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'db.system': DB_SYSTEM_NAME_VALUE_POSTGRESQL, // the older convention's name, which many backends still read
            [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
            [ATTR_DB_OPERATION_NAME]: summary.operation,
            [ATTR_DB_QUERY_SUMMARY]: spanName,
            ...(summary.table && { [ATTR_DB_COLLECTION_NAME]: summary.table }),
          },
        },
        parent,
      );
      return (err) => {
        if (err !== undefined) {
          const type = errorTypeOf(err);
          span.setAttribute(ATTR_ERROR_TYPE, type);
          if (/^[0-9A-Z]{5}$/.test(type)) span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, type);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      };
    },
  };

  return { requests, queries, shutdown: () => provider.shutdown() };
}
