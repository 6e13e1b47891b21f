// Configuration from the environment, parsed once at start: a bad value stops the process with a clear message.
import { z } from 'zod';

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  PGLITE_THREAD: z.enum(['true', 'false'], 'must be true or false').default('true'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  LOG_LEVEL: LogLevel.default('info'),
  BOOTSTRAP_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TRANSLATOR_URL: z.url().optional(),
  ALLOW_PRIVATE_FETCH: z.enum(['true', 'false'], 'must be true or false').default('false'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(25_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(0).default(5_000),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  JOB_LEASE_MS: z.coerce.number().int().min(3000).default(60_000),
}).refine((c) => c.HEADERS_TIMEOUT_MS <= c.REQUEST_TIMEOUT_MS, {
  path: ['HEADERS_TIMEOUT_MS'],
  message: 'must not exceed REQUEST_TIMEOUT_MS',
});

export interface Config {
  port: number;
  host: string;
  /** Base of every absolute URL the API returns (`urls.location`, …), without a trailing slash. */
  publicUrl: string;
  /** PGlite runs on a thread of its own unless `thread` is false (server/db/pglite-thread.ts says why). */
  storage: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string; thread: boolean };
  /** PostgreSQL connections of this process (unused on PGlite). */
  pool: { poolSize: number; connectTimeoutMs: number };
  logLevel: z.infer<typeof LogLevel>;
  bootstrapToken?: string;
  /** LibreTranslate-compatible server the translation runs use; absent: text is copied unchanged. */
  translatorUrl?: string;
  /** Whether user-given URLs may reach loopback/private addresses (server/http/outbound.ts reads it from the environment). */
  allowPrivateFetch: boolean;
  /** After SIGTERM: the longest wait for requests in flight and the job in progress before closing anyway. */
  shutdownTimeoutMs: number;
  /** node:http server limits: a whole request, its headers, an idle keep-alive connection. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long a job claim holds without a heartbeat (server/jobs/runner.ts). */
  jobLeaseMs: number;
}

/** Parses the environment; throws an error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? 'localhost' : c.HOST}:${c.PORT}`).replace(/\/+$/, ''),
    storage: c.DATABASE_URL ? { kind: 'postgres', url: c.DATABASE_URL } : { kind: 'pglite', dataDir: c.DATA_DIR, thread: c.PGLITE_THREAD === 'true' },
    pool: { poolSize: c.DB_POOL_SIZE, connectTimeoutMs: c.DB_CONNECT_TIMEOUT_MS },
    logLevel: c.LOG_LEVEL,
    bootstrapToken: c.BOOTSTRAP_TOKEN,
    translatorUrl: c.TRANSLATOR_URL,
    allowPrivateFetch: c.ALLOW_PRIVATE_FETCH === 'true',
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: c.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: c.HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: c.KEEP_ALIVE_TIMEOUT_MS,
    jobLeaseMs: c.JOB_LEASE_MS,
  };
}
