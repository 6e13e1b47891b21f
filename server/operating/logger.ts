// The server's logger: readable, coloured lines (pino-pretty) when stdout is a terminal, a person watching;
// JSON lines otherwise (a file, a pipe, a log collector, the tests that read a child server's output).
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export interface ServerLogger {
  logger: Logger;
  /** Writes out what is buffered, synchronously: before the process exits. */
  flushSync(): void;
}

export function createServerLogger(level: string, { terminal = process.stdout.isTTY === true } = {}): ServerLogger {
  if (terminal) {
    // Written synchronously: a terminal shows a line as it happens, and the rate a person can read is low.
    const stream = pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
    return { logger: pino({ level }, stream), flushSync: () => {} };
  }
  // Log lines are buffered and written in batches (sonic-boom, asynchronous): one write per line would be a
  // system call per request on the hot path. The buffer is flushed on shutdown; a crash may lose its last lines.
  const destination = pino.destination({ sync: false, minLength: 4096 });
  const logger = pino({ level }, destination);
  // …and at least every second, so a quiet server's lines are not held back.
  setInterval(() => logger.flush(), 1000).unref();
  return {
    logger,
    flushSync() {
      try {
        destination.flushSync();
      } catch {
        // Not open yet: nothing was written.
      }
    },
  };
}
