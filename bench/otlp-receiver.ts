// A local OTLP/HTTP receiver for measuring what traces cost: answers every JSON export POSTed to
// /v1/traces, counting the spans it held (printed at exit), and keeps nothing. Run it, then the bench with
// OTEL_EXPORTER_OTLP_ENDPOINT pointing at it:
//
//   npx tsx bench/otlp-receiver.ts --port 4318 &
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 npx tsx bench/http.ts --storage pglite --rounds 1 --duration 5
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: '4318' } } });
let spans = 0;
let exports = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.statusCode = 404;
      return void res.end();
    }
    exports++;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] };
    for (const r of body.resourceSpans ?? []) for (const s of r.scopeSpans ?? []) spans += s.spans?.length ?? 0;
    res.setHeader('Content-Type', 'application/json');
    res.end('{}');
  });
});
const report = () => console.log(`otlp-receiver: ${spans} spans in ${exports} exports`);
process.on('SIGTERM', () => {
  report();
  process.exit(0);
});
process.on('SIGINT', () => {
  report();
  process.exit(0);
});
server.listen(Number(values.port), '127.0.0.1', () => console.log(`otlp-receiver: listening on http://127.0.0.1:${values.port}`));
