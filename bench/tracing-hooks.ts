// What the tracing hooks themselves cost per request, in this process, without a server or a load generator
// (so far less sensitive to a shared machine than bench/http.ts --traces): the request hook
// (RequestTracer.serve), one statement under it (QueryTracer.start and its end), the span's end on the
// response's 'close', and the batch export to bench/otlp-receiver.ts (started here, in its own process).
// CPU time of this process (every thread: the export's serialization and HTTP included) per request, median
// of 3 runs of N requests, for no tracer and for each sampler; the differences with `none` are the cost.
//
//   npx tsx bench/tracing-hooks.ts [--requests 300000]
import { spawn } from 'node:child_process';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import path from 'node:path';
import { setImmediate as yieldLoop } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_TRACE_SAMPLE_RATIO, type TraceSamplerName } from '../server/config.js';
import { startTracing, type Tracing } from '../server/telemetry/tracing.js';
import { freePort } from './support/bench-run.js';

const { values: opts } = parseArgs({ options: { requests: { type: 'string', default: '300000' } } });
const N = Number(opts.requests);
const port = await freePort();
const receiver = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'otlp-receiver.ts'), '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise<void>((resolve, reject) => {
  receiver.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
  receiver.once('exit', (code) => reject(new Error(`otlp-receiver exited (${code})`)));
});

const req = new IncomingMessage(new Socket());
req.method = 'GET';
req.headers = { authorization: 'Bearer x', host: '127.0.0.1' };
const route = { operationId: 'getSpaceById', template: '/spaces/{spaceId}' };
const sql = 'select "id", "title" from "spaces" where "spaces"."id" = $1';

/** ns of CPU per request; the event loop turns every 1,000 requests, so the batches are exported meanwhile. */
async function run(tracing: Tracing | undefined): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i += 1000) {
    for (let j = 0; j < 1000; j++) {
      const res = new ServerResponse(req);
      const work = () => tracing?.queries.start(sql, 'space_access')?.();
      if (tracing) tracing.requests.serve(req, res, route, work);
      else work();
      res.emit('close');
    }
    await yieldLoop();
  }
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / N;
}

const result: Record<string, number> = {};
// The ratio sampler at the server's default ratio and at ten times it (what a user raising it pays).
const variants: [label: string, sampler: TraceSamplerName | 'none', ratio: number][] = [
  ['none', 'none', 0],
  ['always_off', 'always_off', 0],
  [`parentbased_traceidratio ${DEFAULT_TRACE_SAMPLE_RATIO} (default)`, 'parentbased_traceidratio', DEFAULT_TRACE_SAMPLE_RATIO],
  [`parentbased_traceidratio ${DEFAULT_TRACE_SAMPLE_RATIO * 10}`, 'parentbased_traceidratio', DEFAULT_TRACE_SAMPLE_RATIO * 10],
  ['always_on', 'always_on', 1],
];
for (const [label, sampler, ratio] of variants) {
  const tracing =
    sampler === 'none'
      ? undefined
      : startTracing({ url: `http://127.0.0.1:${port}/v1/traces`, headers: {}, serviceName: 'bench', sampler, samplerRatio: ratio, scheduleDelayMs: 200 });
  await run(tracing); // warm-up
  const runs = [await run(tracing), await run(tracing), await run(tracing)].sort((a, b) => a - b);
  await tracing?.shutdown();
  result[label] = Math.round(runs[1]);
}
receiver.kill('SIGTERM');
for (const [sampler, ns] of Object.entries(result)) {
  console.log(`SUMMARY tracing-hooks ${sampler}: ${ns} ns CPU per request${sampler === 'none' ? '' : `, ${ns - result.none} ns more than none`}`);
}
process.exit(0);
