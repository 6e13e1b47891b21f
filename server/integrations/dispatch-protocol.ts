// How a script is called, by its protocol (docs/integrations-runtime.md):
// - `v2`, GitBook's dispatch protocol, what `@gitbook/runtime`'s createIntegration() reads: a POST to
//   `<origin>/v1` (the runtime refuses another path in production) whose body is a multipart form with
//   `event` (the event's JSON), `environment` (the IntegrationEnvironment's JSON) and, for a `fetch` event
//   with a body, `fetch-body` (the request's body: a text field, or a file part when it is not UTF-8).
//   Events, requests to public endpoints (a `fetch` event naming the request) and published-script and
//   visitor-authentication requests all take this form; the script's Response is the answer.
// - `v1`, the plain Workers form: an event is a POST of its JSON with `X-Integration-Event: <type>`, a
//   request to a public endpoint is the request itself.
// A development tunnel receives the same request (tunnel-forward.ts, delivery.job.ts).
import { randomUUID } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { ScriptRequest } from '../runtime/script-runtime.js';
import { bodyForScript } from '../runtime/script-runtime.js';
import type { IntegrationEnvironment } from './script-environment.js';

/** What a `fetch` event says of the request it carries (the public FetchRequest, with the method as sent). */
export interface FetchedRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: Buffer;
}

/** A boundary no part can be made to contain (unpredictable): randomUUID draws from a cached pool of entropy. */
function newBoundary(): string {
  return `----docs-api-${randomUUID().replaceAll('-', '')}`;
}

/** The multipart body of the form's fields, each `[name, text]` or `[name, bytes]` (a file part). */
export function multipartBody(fields: [string, string | Buffer][]): { contentType: string; body: Buffer } {
  const boundary = newBoundary();
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    const file = typeof value !== 'string';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="blob"' : ''}\r\n` +
      (file ? 'Content-Type: application/octet-stream\r\n' : '') +
      '\r\n';
    parts.push(Buffer.from(head, 'utf8'), typeof value === 'string' ? Buffer.from(value, 'utf8') : value, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

/** The `v2` request carrying `event` (and, for a fetch event, the request's body) with `environment`. */
export function dispatchRequest(origin: string, event: Record<string, unknown>, environment: IntegrationEnvironment, fetchBody?: Buffer): ScriptRequest {
  const headers: [string, string][] = [['x-integration-event', String(event.type)]];
  const binary = fetchBody !== undefined && fetchBody.length > 0 && !isUtf8(fetchBody);
  if (binary) {
    // A body that is not text goes as a file part: the form is bytes, handed to the sandbox as base64.
    const { contentType, body } = multipartBody([
      ['event', JSON.stringify(event)],
      ['environment', JSON.stringify(environment)],
      ['fetch-body', fetchBody],
    ]);
    return { method: 'POST', url: `${origin}/v1`, headers: [['content-type', contentType], ...headers], ...bodyForScript(body) };
  }
  // All text (the usual case): the form is written as a string, which is what the sandbox is handed, with
  // no bytes made and checked on the way (every part is UTF-8 already).
  const boundary = newBoundary();
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  let body = part('event', JSON.stringify(event)) + part('environment', JSON.stringify(environment));
  if (fetchBody !== undefined && fetchBody.length > 0) body += part('fetch-body', fetchBody.toString('utf8'));
  body += `--${boundary}--\r\n`;
  return { method: 'POST', url: `${origin}/v1`, headers: [['content-type', `multipart/form-data; boundary=${boundary}`], ...headers], body };
}

/**
 * The method as the public FetchRequest names it: GitBook's enum is lower-case (`get`, `post`, `put`,
 * `delete`), which every Request constructor normalizes back; a method outside it (PATCH, HEAD, OPTIONS)
 * goes as sent, since `new Request(url, { method: 'patch' })` would keep it lower-case.
 */
function eventMethod(method: string): string {
  const lower = method.toLowerCase();
  return lower === 'get' || lower === 'post' || lower === 'put' || lower === 'delete' ? lower : method;
}

/** The `fetch` event of a request to a public endpoint (the public FetchEvent). */
export function fetchEvent(eventId: string, request: FetchedRequest, target: { installationId?: string; spaceId?: string; siteId?: string }) {
  return {
    eventId,
    type: 'fetch',
    ...(target.installationId && { installationId: target.installationId }),
    ...(target.spaceId && { spaceId: target.spaceId }),
    ...(target.siteId && { siteId: target.siteId }),
    request: { method: eventMethod(request.method), url: request.url, headers: Object.fromEntries(request.headers) },
  };
}

/** The `v1` request of an event: its JSON, POSTed with `X-Integration-Event: <type>`. */
export function jsonEventRequest(url: string, event: Record<string, unknown>): ScriptRequest {
  return {
    method: 'POST',
    url,
    headers: [
      ['content-type', 'application/json'],
      ['x-integration-event', String(event.type)],
    ],
    body: JSON.stringify(event),
  };
}
