// Forwards a buffered request to a backend and buffers its answer, so the mock's front can look at the
// answer (status, violations) before it replies — and, in hybrid mode, try another backend instead.
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

// Hop-by-hop headers belong to one connection, not to the request being forwarded.
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer'];

/** Sends `method path` with `headers` and `body` to `target` and resolves with the whole answer. */
export function forward(target: URL, method: string, path: string, headers: http.IncomingHttpHeaders, body: Buffer): Promise<Answer> {
  const sent: http.OutgoingHttpHeaders = { ...headers, host: target.host };
  for (const name of HOP_BY_HOP) delete sent[name];
  if (body.length > 0 || sent['content-length'] !== undefined) sent['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: target.hostname, port: target.port, method, path, headers: sent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Writes a buffered answer to the client (with a correct length, since the body may have been rewritten). */
export function reply(res: http.ServerResponse, answer: Answer): void {
  const headers: http.OutgoingHttpHeaders = { ...answer.headers, 'content-length': String(answer.body.length) };
  for (const name of HOP_BY_HOP) delete headers[name];
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}
