// The span exporter the batch span processor is given (tracing.ts): each batch is serialized here as
// OTLP/HTTP JSON, by OpenTelemetry's own serializer, and sent by a thread of its own (span-export-worker.mjs,
// which says why), to the collector at `url`.
import { Worker } from 'node:worker_threads';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

type Reply = { kind: 'exported'; id: number; code: ExportResultCode; error?: string } | { kind: 'flushed'; id: number };

export class ThreadedSpanExporter implements SpanExporter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private nextId = 1;
  private stopped: Error | undefined;

  constructor(settings: { url: string; headers?: Record<string, string> }) {
    this.worker = new Worker(new URL('./span-export-worker.mjs', import.meta.url), { workerData: settings });
    // The thread keeps the process alive only while a batch is on its way.
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.worker.unref();
      waiter(reply);
    });
    // The thread died: the batches waiting fail, and every later one, instead of hanging.
    const failAll = (err: Error) => {
      this.stopped ??= err;
      for (const waiter of this.waiting.values()) waiter({ kind: 'exported', id: 0, code: ExportResultCode.FAILED, error: err.message });
      this.waiting.clear();
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`the traces' exporter thread stopped (exit code ${code})`)));
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.stopped) return resultCallback({ code: ExportResultCode.FAILED, error: this.stopped });
    const bytes = JsonTraceSerializer.serializeRequest(spans);
    if (!bytes) return resultCallback({ code: ExportResultCode.FAILED, error: new Error('Nothing to send') });
    const id = this.ask((reply) => {
      const failed = reply.kind === 'exported' && reply.code !== ExportResultCode.SUCCESS;
      resultCallback(failed ? { code: ExportResultCode.FAILED, error: new Error(reply.error ?? 'export failed') } : { code: ExportResultCode.SUCCESS });
    });
    // The bytes' buffer moves to the thread rather than being copied.
    this.worker.postMessage({ kind: 'export', id, bytes, spans: spans.length }, [bytes.buffer as ArrayBuffer]);
  }

  /** Settles once every batch sent so far has been answered by the collector (or given up). */
  forceFlush(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const id = this.ask(() => resolve());
      this.worker.postMessage({ kind: 'flush', id });
    });
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.stopped ??= new Error('the exporter is shut down');
    await this.worker.terminate();
  }

  private ask(answered: (reply: Reply) => void): number {
    const id = this.nextId++;
    this.waiting.set(id, answered);
    this.worker.ref();
    return id;
  }
}
