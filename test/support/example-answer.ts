// What an operation's documented example is as an answer: its success status, the example body of that
// status and the examples of its headers (what the mock answers). Read from the published document.
import { specOperations } from './spec.js';

type Json = Record<string, any>;

export interface ExampleAnswer {
  status: number;
  body?: unknown;
  headers: Record<string, string>;
}

export function exampleAnswer(operationId: string): ExampleAnswer {
  const op = specOperations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId} in the document`);
  const status = Object.keys(op.responses).map(Number).find((s) => s >= 200 && s < 300)!;
  const response = op.responses[String(status)] as Json;
  const headers = Object.fromEntries(Object.entries((response.headers ?? {}) as Json).map(([name, h]) => [name, String(h.example ?? h.schema?.example ?? '')]));
  const body = response.content?.['application/json']?.example;
  return { status, ...(body !== undefined && { body }), headers };
}
