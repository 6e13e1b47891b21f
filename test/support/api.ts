// A supertest client that checks every response against the spec and records which operation and
// status each test exercised, for the coverage report.
import { appendFileSync } from 'node:fs';
import type { App } from '../../server/app.js';
import request from 'supertest';
import { expect } from 'vitest';
import { serverOf } from './listening.js';
import { operationsLog } from './paths.js';
import { findOperation, responseProblems } from './spec.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ApiResponse {
  status: number;
  body: any;
  headers: Record<string, string>;
}

interface Options {
  query?: Record<string, string | number | boolean | string[]>;
  body?: unknown;
  /** Raw body (text or bytes) and content type, to test what the JSON parser refuses. */
  raw?: { data: string | Buffer; contentType: string };
  /** Extra request headers, e.g. `Content-Encoding`. */
  headers?: Record<string, string>;
  token?: string | null;
  /** The test provokes a 500 on purpose (a failing database or handler); any other 500 fails the test. */
  expectServerError?: boolean;
}

/** Sends one request to the app and fails the test when the response breaks the spec. */
export async function send(app: App, method: Method, path: string, options: Options = {}): Promise<ApiResponse> {
  let req = request(serverOf(app))[method](path);
  if (options.token) req = req.set('Authorization', `Bearer ${options.token}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set(name, value);
  if (options.query) req = req.query(options.query);
  // Bytes go as they are: superagent would otherwise serialize a Buffer as JSON for a JSON content type.
  if (options.raw) req = req.set('Content-Type', options.raw.contentType).serialize((x) => x).send(options.raw.data);
  else if (options.body !== undefined) req = req.send(options.body as object);
  const res = await req;
  // Every operation declares 500, so the document check alone accepts one: a test that does not look at the
  // status (a race, a setup step) would pass over an unexpected error.
  if (res.status === 500 && !options.expectServerError) expect.fail(`${method.toUpperCase()} ${path} -> 500 ${res.text.slice(0, 300)}`);
  const op = findOperation(method, path);
  if (op) {
    const problems = responseProblems(op, res.status, res.text === '' ? undefined : res.body, res.headers);
    expect(problems, `${method.toUpperCase()} ${path} -> ${res.status} ${res.text?.slice(0, 300)}`).toEqual([]);
    const test = expect.getState().currentTestName ?? '(outside a test)';
    appendFileSync(operationsLog, JSON.stringify({ operationId: op.operationId, status: res.status, test }) + '\n');
  }
  return { status: res.status, body: res.body, headers: res.headers as Record<string, string> };
}

/**
 * Fails the test when an answer not received through `send` (a child server's, by fetch) breaks the
 * document. `pathname` is under /v1, without the query string. A soft failure: the test goes on and fails
 * at its end, so a caller that reads any exception as "no answer" (a server being killed) still fails.
 */
export function expectDocumentedAnswer(method: string, pathname: string, status: number, body: unknown, headers: Headers): void {
  const op = findOperation(method, pathname);
  if (!op) return;
  const problems = responseProblems(op, status, body, Object.fromEntries(headers.entries()));
  expect.soft(problems, `${method.toUpperCase()} ${pathname} -> ${status} ${JSON.stringify(body)?.slice(0, 300)}`).toEqual([]);
}

export interface ApiClient {
  get(path: string, query?: Options['query']): Promise<ApiResponse>;
  delete(path: string): Promise<ApiResponse>;
  post(path: string, body?: unknown): Promise<ApiResponse>;
  put(path: string, body?: unknown): Promise<ApiResponse>;
  patch(path: string, body?: unknown): Promise<ApiResponse>;
}

/** Requests under /v1 authenticated with `token`. */
export function apiClient(app: App, token: string): ApiClient {
  const v1 = (path: string) => `/v1${path}`;
  return {
    get: (path, query) => send(app, 'get', v1(path), { token, query }),
    delete: (path) => send(app, 'delete', v1(path), { token }),
    post: (path, body) => send(app, 'post', v1(path), { token, body }),
    put: (path, body) => send(app, 'put', v1(path), { token, body }),
    patch: (path, body) => send(app, 'patch', v1(path), { token, body }),
  };
}
