// Prism mocks the spec's paths at its root and ignores the `/v1` server prefix, while clients call
// `<base>/v1/...`. This small forwarder serves the mock under `/v1`, like the real server.
import http from 'node:http';

/** Serves `http://host:port/v1/*` by forwarding to `target` with the prefix removed. */
export function servePrefixed(target: URL, port: number, host: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith('/v1/') && req.method !== 'OPTIONS') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, message: `No operation at ${req.method} ${url}: paths start with /v1` } }));
      return;
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: url.replace(/^\/v1/, ''), headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 502, message: `Mock unavailable: ${err.message}` } }));
    });
    req.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
