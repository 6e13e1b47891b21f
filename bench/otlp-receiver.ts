// A local OTLP/HTTP receiver for measuring what traces cost: answers every JSON export POSTed to
// /v1/traces, counting the spans it held, and keeps nothing. `GET /stats` answers the counts so far
// ({ spans, exports }), printed at exit too. bench/http.ts `--traces …` starts it itself; by hand:
//
//   npx tsx bench/otlp-receiver.ts --port 4318 &
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 npx tsx server/main.ts
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: process.env.PORT ?? '4318' } } });
let spans = 0;
let exports = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    res.setHeader('Content-Type', 'application/json');
    if (req.method === 'GET' && req.url === '/stats') return void res.end(JSON.stringify({ spans, exports }));
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.statusCode = 404;
      return void res.end('{}');
    }
    exports++;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] };
    for (const r of body.resourceSpans ?? []) for (const s of r.scopeSpans ?? []) spans += s.spans?.length ?? 0;
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
