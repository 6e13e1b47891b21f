// `npx tsx bench/rate-limit.ts`: the rate limiter's cost on the hot path, in-process: nanoseconds per
// `hit()` of one busy token (5 runs of 10⁶ calls after a warm-up). See bench/results/http.md.
import { createRateLimiter } from '../server/operating/rate-limit.js';

const limiter = createRateLimiter({ perMinute: 1e12 });
const key = `token:${'x'.repeat(40)}`;
for (let i = 0; i < 2e5; i++) limiter.hit(key);
const runs: number[] = [];
for (let r = 0; r < 5; r++) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < 1e6; i++) limiter.hit(key);
  runs.push(Number(process.hrtime.bigint() - started) / 1e6);
}
console.log(`ns per hit (5 runs of 10^6): ${runs.map((ns) => ns.toFixed(0)).join(' ')}`);
await limiter.close();
