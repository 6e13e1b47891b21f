// Starts the Prism mock on the published document and calls every operation once, with the
// documented examples, checking that each answer is a success the spec allows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockMode, type RunningMock } from '../mock/modes.js';
import { resolveRef, responseProblems, specOperations } from './support/spec.js';

type Json = Record<string, any>;

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMockMode('examples', { log: () => {} });
});
afterAll(async () => mock?.stop());

/** A request built from the operation's examples: path parameters, required query parameters, body. */
function exampleRequest(path: string, op: Json) {
  const params: Json[] = op.parameters ?? [];
  let url = path;
  const query = new URLSearchParams();
  for (const p of params) {
    // A parameter whose schema is a named component ($ref) has its example there.
    const value = p.example ?? (p.schema && resolveRef(p.schema).example);
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    if (p.in === 'query' && p.required) query.set(p.name, String(value));
  }
  const body = op.requestBody?.content?.['application/json']?.example;
  return { url: `${url}${query.size > 0 ? `?${query}` : ''}`, body };
}

describe('mock', () => {
  it.each(specOperations)('$operationId answers a documented example through Prism', async (specOp) => {
    const { url, body } = exampleRequest(specOp.path, specOp.operation);
    const res = await fetch(`${mock.baseUrl}${url}`, {
      method: specOp.method.toUpperCase(),
      headers: { Authorization: 'Bearer mock-token', ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, text).toBeGreaterThanOrEqual(200);
    expect(res.status, text).toBeLessThan(300);
    const headers = Object.fromEntries(res.headers.entries());
    // A path served without a token may answer bytes (a file, a PDF, an image, YAML: contract/downloads.ts).
    const json = headers['content-type']?.startsWith('application/json');
    expect(responseProblems(specOp, res.status, text === '' ? undefined : json ? JSON.parse(text) : text, headers)).toEqual([]);
  });
});
