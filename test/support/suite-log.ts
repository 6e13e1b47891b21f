// The logs of a test run, for scripts/check-secrets.ts (run after vitest by `npm test`): every app the
// harness creates logs at `debug` into test-results/logs/, and every token the harness or a child
// server uses is recorded beside them, so the check can prove no token reached a log line.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { resultsDir } from './paths.js';

export const logsDir = path.join(resultsDir, 'logs');
const tokensFile = () => path.join(logsDir, `tokens-${process.pid}.txt`);

let logger: Logger | undefined;
/** One debug-level logger per test worker, writing synchronously (a worker may exit right after its last test). */
export function suiteLogger(): Logger {
  if (!logger) {
    mkdirSync(logsDir, { recursive: true });
    logger = pino({ level: 'debug' }, pino.destination({ dest: path.join(logsDir, `server-${process.pid}.log`), sync: true }));
  }
  return logger;
}

/** Records a token the tests used, to be looked for in the logs afterwards. */
export function recordToken(token: string): void {
  mkdirSync(logsDir, { recursive: true });
  appendFileSync(tokensFile(), `${token}\n`);
}

/** Keeps a child server's output with the suite's logs. */
export function recordChildOutput(name: string, output: string): void {
  mkdirSync(logsDir, { recursive: true });
  appendFileSync(path.join(logsDir, `child-${process.pid}-${name}.log`), output);
}
