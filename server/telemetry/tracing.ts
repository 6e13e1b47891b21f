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
//
// Cost: a request is sampled before anything of OpenTelemetry is made for it (sampledBy): an unsampled one
// gets no span, no id, no attribute, no listener, and an empty request context, and its statements find no
// span and do nothing more. A sampled request's span names and attributes, and its statements' (by SQL text), are
// built once and reused; ended spans go to the exporter in batches, which sends them from a thread of its own
// (threaded-span-exporter.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import {
  context,
  defaultTextMapGetter,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  SamplingDecision,
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
import type { TracedRoute } from '../http/request-trace.js';
import { statementSpanName, summarizeStatement, type StatementSummary } from './statement-summary.js';
import { ThreadedSpanExporter } from './threaded-span-exporter.js';

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

/**
 * Whether a request under `parent` is sampled, as samplerOf(name, ratio) decides, but decided before any span
 * or trace id exists: under a valid parent span (a `traceparent`, a host's active span) the sampler itself
 * decides on the parent's trace id; a root request's trace id would be new and random, so the ratio
 * samplers' decision on it (its low bits below ratio × 2^…) is a draw of probability `ratio`, made here with
 * Math.random. The spans are then started with an always-on sampler: the decision is already made.
 */
export function sampledBy(name: TraceSamplerName, ratio: number): (parent: Context, spanName: string) => boolean {
  const sampler = samplerOf(name, ratio);
  const rootShare = name.endsWith('always_on') ? 1 : name.endsWith('always_off') ? 0 : Math.min(Math.max(ratio, 0), 1);
  return (parent, spanName) => {
    const parentSpan = trace.getSpanContext(parent);
    if (parentSpan && isSpanContextValid(parentSpan)) {
      return sampler.shouldSample(parent, parentSpan.traceId, spanName, SpanKind.SERVER, {}, []).decision === SamplingDecision.RECORD_AND_SAMPLED;
    }
    return rootShare >= 1 || (rootShare > 0 && Math.random() < rootShare);
  };
}

/** A statement span's name and attributes, built once per distinct SQL text (and prepared name). */
interface StatementSpan {
  name: string;
  attributes: Attributes;
}

function statementSpan(summary: StatementSummary, name: string | undefined): StatementSpan {
  const spanName = statementSpanName(summary, name);
  return {
    name: spanName,
    attributes: {
      'db.system': DB_SYSTEM_NAME_VALUE_POSTGRESQL, // the older convention's name, which many backends still read
      [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
      [ATTR_DB_OPERATION_NAME]: summary.operation,
      [ATTR_DB_QUERY_SUMMARY]: spanName,
      ...(summary.table && { [ATTR_DB_COLLECTION_NAME]: summary.table }),
    },
  };
}

export function startTracing(settings: TraceSettings): Tracing {
  const sampled = sampledBy(settings.sampler, settings.samplerRatio);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    // Every span started is one sampledBy chose (or a statement under one).
    sampler: new AlwaysOnSampler(),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new ThreadedSpanExporter({ url: settings.url, headers: settings.headers }),
        scheduledDelayMillis: settings.scheduleDelayMs,
      }),
    ],
  });
  const tracer = provider.getTracer('docs-workspace-api');
  const propagator = new W3CTraceContextPropagator();
  /** The context of the request being served (its span; none when unsampled), for the statements sent on its behalf. */
  const requestContext = new AsyncLocalStorage<Context | undefined>();

  /** A route's span name and attributes (routes are the pipeline's own objects, one per operation). */
  const routeSpans = new WeakMap<TracedRoute, StatementSpan>();
  const routeSpan = (method: string, route: TracedRoute | undefined): StatementSpan => {
    const verb = method === '_OTHER' ? 'HTTP' : method;
    if (!route) return { name: verb, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } };
    let span = routeSpans.get(route);
    // A route is served under one method, but a GET route also answers HEAD.
    if (span?.attributes[ATTR_HTTP_REQUEST_METHOD] !== method) {
      span = { name: `${verb} ${route.template}`, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_HTTP_ROUTE]: route.template, [ATTR_OPERATION_ID]: route.operationId } };
      routeSpans.set(route, span);
    }
    return span;
  };

  const requests: RequestTracer = {
    serve(req: IncomingMessage, res, route, serve) {
      // No header, no parsing: the parent is the active context (ROOT_CONTEXT without a host's context manager).
      const parent = req.headers.traceparent === undefined ? context.active() : propagator.extract(context.active(), req.headers, defaultTextMapGetter);
      // An unsampled request costs its sampling decision only: no span, no listener, and an empty context, so no
      // statement spans. It still runs in the request context (holding nothing): when only sampled requests ran
      // in one, the async context frame appeared on a few requests and vanished on the rest, and that cost every
      // request (1 % sampled took 15–20 % of a cached read's throughput, none once every request ran so;
      // why is not known: the profiler hides it, and V8 shows no deoptimization loop; docs/benchmarks.md).
      if (!sampled(parent, route?.template ?? '')) return requestContext.run(undefined, serve);
      const method = req.method && KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
      const { name, attributes } = routeSpan(method, route);
      const span: Span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
      // 'close' follows 'finish', and comes alone when the client went away before the answer was sent.
      res.on('close', () => {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
        if (!res.writableFinished) span.setAttribute(ATTR_ERROR_TYPE, 'connection closed');
        // A server span's 4xx is the caller's error, not the server's (the semantic conventions' rule).
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      requestContext.run(trace.setSpan(parent, span), serve);
    },
  };

  /** Statement spans by SQL text, then by prepared name ('' for none); bounded as the summaries are. */
  const statementSpans = new Map<string, Map<string, StatementSpan>>();
  const MAX_STATEMENT_SPANS = 2000;
  const statementSpanOf = (text: string, name: string | undefined): StatementSpan => {
    let byName = statementSpans.get(text);
    let span = byName?.get(name ?? '');
    if (span) return span;
    if (!byName) {
      if (statementSpans.size >= MAX_STATEMENT_SPANS) statementSpans.clear(); // texts made per call (long IN lists)
      byName = new Map();
      statementSpans.set(text, byName);
    }
    span = statementSpan(summarizeStatement(text), name);
    byName.set(name ?? '', span);
    return span;
  };

  const queries: QueryTracer = {
    start(text, name) {
      const parent = requestContext.getStore();
      if (!parent) return undefined;
      const { name: spanName, attributes } = statementSpanOf(text, name);
      const span = tracer.startSpan(spanName, { kind: SpanKind.CLIENT, attributes }, parent);
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
    tracing: () => requestContext.getStore() !== undefined,
  };

  return { requests, queries, shutdown: () => provider.shutdown() };
}
