// Configuration from the environment, parsed once at start: a bad value stops the process with a clear message.
import { join } from 'node:path';
import { z } from 'zod';
import type { RepositoryLimits } from './git-sync/work-repository.js';
import { parseTrustProxy, type TrustProxySetting } from './http/proxy-trust.js';

/** OTEL_EXPORTER_OTLP_HEADERS: `name=value` pairs, comma-separated, values percent-encoded (OpenTelemetry's format). */
const OTLP_HEADERS = /^\s*[^=,\s]+\s*=[^,]*(,\s*[^=,\s]+\s*=[^,]*)*$/;

function otlpHeaders(value: string | undefined): Record<string, string> | undefined {
  if (!value) return undefined;
  return Object.fromEntries(
    value.split(',').map((pair) => {
      const at = pair.indexOf('=');
      const raw = pair.slice(at + 1).trim();
      let decoded = raw;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        // not percent-encoded after all: taken as written
      }
      return [pair.slice(0, at).trim(), decoded];
    }),
  );
}

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * The share of root requests traced unless OTEL_TRACES_SAMPLER_ARG says: one in a hundred. A sampled request
 * costs the OpenTelemetry SDK's spans and their export, 10–30 µs of CPU, about a cached read's whole cost, so
 * the share traced is most of what traces cost (docs/decisions.md; measured in docs/benchmarks.md, issue 52 item 5).
 */
export const DEFAULT_TRACE_SAMPLE_RATIO = 0.01;

export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  PUBLISHED_URL: z.url().optional(),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  PGLITE_THREAD: z.enum(['true', 'false'], 'must be true or false').default('true'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  LOG_LEVEL: LogLevel.default('info'),
  BOOTSTRAP_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TRANSLATOR_URL: z.url().optional(),
  TRANSLATOR_KIND: z.enum(['copy', 'libretranslate', 'openai'], 'must be copy, libretranslate or openai').optional(),
  TRANSLATOR_MODEL: z.string().min(1).optional(),
  TRANSLATOR_API_KEY: z.string().min(1).optional(),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  INSIGHTS_KIND: z.enum(['heuristic', 'openai'], 'must be heuristic or openai').default('heuristic'),
  INSIGHTS_URL: z.url().optional(),
  INSIGHTS_MODEL: z.string().min(1).optional(),
  INSIGHTS_API_KEY: z.string().min(1).optional(),
  ALLOW_PRIVATE_FETCH: z.enum(['true', 'false'], 'must be true or false').default('false'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(25_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(0).default(5_000),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  JOB_LEASE_MS: z.coerce.number().int().min(3000).default(60_000),
  JOB_RETENTION_DAYS: z.coerce.number().min(0).default(7),
  // How large a repository Git Sync takes (server/git-sync/work-repository.ts; the defaults of sync.job.ts).
  GIT_SYNC_TIMEOUT_MS: z.coerce.number().int().min(1000).default(600_000),
  GIT_SYNC_MAX_PACK_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024 * 1024),
  GIT_SYNC_MAX_FILES: z.coerce.number().int().min(1).default(10_000),
  GIT_SYNC_MAX_DOCS_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024 * 1024),
  GIT_SYNC_MAX_ASSET_BYTES: z.coerce.number().int().min(1024).default(100 * 1024 * 1024),
  SAML_SIGNING_KEY_FILE: z.string().min(1).optional(),
  SAML_SIGNING_CERT_FILE: z.string().min(1).optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TRUST_PROXY: z.string().optional(),
  READ_CACHE: z.enum(['on', 'off'], 'must be on or off').default('on'),
  // Traces (server/telemetry/): off unless an endpoint is set. The names and meanings are OpenTelemetry's own.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().regex(OTLP_HEADERS, 'must be comma-separated name=value pairs').optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('docs-workspace-api'),
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(0).default(5000),
  OTEL_TRACES_SAMPLER: z
    .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
    .default('parentbased_traceidratio'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(DEFAULT_TRACE_SAMPLE_RATIO),
  // File bytes (server/blobs/): which backend new files go to, and its settings.
  FILES_BACKEND: z.enum(['database', 'folder', 's3'], 'must be database, folder or s3').default('database'),
  FILES_DIR: z.string().min(1).optional(),
  FILES_MAX_BYTES: z.coerce.number().int().min(1).max(5 * 1024 ** 4).default(4 * 1024 * 1024),
  FILES_GRACE_HOURS: z.coerce.number().min(0).default(24),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_PREFIX: z.string().regex(/^[^/].*$|^$/, 'must not start with /').default(''),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], 'must be true or false').default('false'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PRESIGNED_DOWNLOADS: z.enum(['true', 'false'], 'must be true or false').default('true'),
  S3_PRESIGN_SECONDS: z.coerce.number().int().min(1).max(604_800).default(300),
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^/]/, 'must be an smtp:// or smtps:// URL').optional(),
}).refine((c) => c.HEADERS_TIMEOUT_MS <= c.REQUEST_TIMEOUT_MS, {
  path: ['HEADERS_TIMEOUT_MS'],
  message: 'must not exceed REQUEST_TIMEOUT_MS',
}).refine((c) => validTrustProxy(c.TRUST_PROXY), {
  path: ['TRUST_PROXY'],
  message: 'must be false, true, a hop count, or comma-separated addresses, subnets (10.0.0.0/8) or loopback, linklocal, uniquelocal',
}).refine((c) => (c.SAML_SIGNING_KEY_FILE === undefined) === (c.SAML_SIGNING_CERT_FILE === undefined), {
  path: ['SAML_SIGNING_CERT_FILE'],
  message: 'SAML_SIGNING_KEY_FILE and SAML_SIGNING_CERT_FILE are set together',
}).superRefine((c, ctx) => {
  // A provider that talks to a server needs where it is, and the OpenAI-compatible ones which model.
  const kind = c.TRANSLATOR_KIND ?? (c.TRANSLATOR_URL ? 'libretranslate' : 'copy');
  if (kind !== 'copy' && !c.TRANSLATOR_URL) ctx.addIssue({ code: 'custom', path: ['TRANSLATOR_URL'], message: `is required when TRANSLATOR_KIND=${kind}` });
  if (kind === 'openai' && !c.TRANSLATOR_MODEL) ctx.addIssue({ code: 'custom', path: ['TRANSLATOR_MODEL'], message: 'is required when TRANSLATOR_KIND=openai' });
  if (c.FILES_BACKEND === 's3' && !c.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when FILES_BACKEND=s3' });
  if ((c.S3_ACCESS_KEY_ID === undefined) !== (c.S3_SECRET_ACCESS_KEY === undefined)) ctx.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together' });
  if (c.INSIGHTS_KIND === 'openai' && !c.INSIGHTS_URL) ctx.addIssue({ code: 'custom', path: ['INSIGHTS_URL'], message: 'is required when INSIGHTS_KIND=openai' });
  if (c.INSIGHTS_KIND === 'openai' && !c.INSIGHTS_MODEL) ctx.addIssue({ code: 'custom', path: ['INSIGHTS_MODEL'], message: 'is required when INSIGHTS_KIND=openai' });
});

/** The translator of translation runs (server/translations/translator.ts). */
export type TranslatorSettings =
  | { kind: 'copy' }
  | { kind: 'libretranslate'; url: string; apiKey?: string; timeoutMs: number }
  | { kind: 'openai'; url: string; model: string; apiKey?: string; timeoutMs: number };

/** How issues are found in conversations (server/conversations/issue-extraction.ts). */
export type InsightsSettings = { kind: 'heuristic' } | { kind: 'openai'; url: string; model: string; apiKey?: string; timeoutMs: number };

export interface Config {
  port: number;
  host: string;
  /** Base of every absolute URL the API returns (`urls.location`, …), without a trailing slash. */
  publicUrl: string;
  /** Base of published docs sites (`<PUBLISHED_URL>/<organization>/<site>`); default `<publicUrl>/sites`, served by this server. */
  publishedUrl: string;
  /** Where the web app lives (`urls.app` of every resource); not served by this server. Unset: `<publicUrl>/app`, where this server answers a page saying so. */
  appUrl?: string;
  /** PGlite runs on a thread of its own unless `thread` is false (server/db/pglite-thread.ts says why). */
  storage: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string; thread: boolean };
  /** PostgreSQL connections of this process (unused on PGlite). */
  pool: { poolSize: number; connectTimeoutMs: number };
  logLevel: z.infer<typeof LogLevel>;
  bootstrapToken?: string;
  /** TRANSLATOR_URL as given (the server of `translator`). */
  translatorUrl?: string;
  /** The translator of translation runs: TRANSLATOR_KIND (default libretranslate when TRANSLATOR_URL is set, else copy). */
  translator: TranslatorSettings;
  /** How issues are found in conversations: INSIGHTS_KIND (default heuristic). */
  insights: InsightsSettings;
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
  /** Days finished jobs are kept before they are deleted (server/jobs/prune.job.ts). */
  jobRetentionDays: number;
  /** How large a repository Git Sync takes (GIT_SYNC_*): beyond any limit an import or export fails naming it. */
  gitSync: RepositoryLimits;
  /** PEM files of the key (and its certificate) SAML AuthnRequests are signed with; absent: not signed. */
  samlSigning?: { keyFile: string; certFile: string };
  /** Requests per token (or per address without a valid token) and minute; 0: no limit (server/operating/rate-limit.ts). */
  rateLimitPerMinute: number;
  /** When set, GET /metrics needs it as a bearer token. */
  metricsToken?: string;
  /** Which proxies may say who the client is (TRUST_PROXY, as Express's `trust proxy` takes it); unset: none. */
  trustProxy?: TrustProxySetting;
  /** Whether the answers of the most frequent reads are held while the database's writes are heard (READ_CACHE; server/http/read-cache.ts). */
  cacheReads: boolean;
  /** OpenTelemetry traces over OTLP/HTTP (server/telemetry/); unset (no OTEL_EXPORTER_OTLP_ENDPOINT): none, and nothing of it loaded. */
  traces?: TraceSettings;
  /** The SMTP server invitations are mailed through (smtp:// or smtps://, credentials in the URL); unset: no mail, the links are only returned (server/invites/invite-mail.ts reads it from the environment). */
  smtpUrl?: string;
  /** Where file bytes live (server/blobs/). */
  files: FileStoreSettings;
}

/** S3-compatible object storage (AWS S3, MinIO, R2, GCS's S3 API). Without keys, the AWS SDK's own chain (AWS_* variables, profiles, roles). */
export interface S3Settings {
  bucket: string;
  /** Prefix of every key, e.g. `docs/` (blobs are `<prefix>blobs/<sha256>`). */
  prefix: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Downloads a reader may have redirect to a presigned URL valid this long; 0: always proxied. */
  presignSeconds: number;
}

export interface FileStoreSettings {
  /** The backend new bytes are written to (existing ones stay where `blobs.backend` says until move-files). */
  backend: 'database' | 'folder' | 's3';
  /** The folder backend's root (FILES_DIR, default `<DATA_DIR>/files`). */
  dir: string;
  /** S3 settings, when S3_BUCKET is set (needed for FILES_BACKEND=s3, and for reading blobs moved there). */
  s3?: S3Settings;
  /** The largest file kept, in bytes (FILES_MAX_BYTES, default 4 MiB): a larger one is refused (413). */
  maxBytes: number;
  /** How long an unreferenced blob is kept before the collector deletes it (FILES_GRACE_HOURS, default 24). */
  graceMs: number;
}

export interface TraceSettings {
  /** The collector's traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`. */
  url: string;
  /** The resource's `service.name` (OTEL_SERVICE_NAME, default docs-workspace-api). */
  serviceName: string;
  /** The longest a finished span waits before it is sent with others (OTEL_BSP_SCHEDULE_DELAY, default 5000 ms). */
  scheduleDelayMs: number;
  /** Headers of every export, e.g. a collector's key (OTEL_EXPORTER_OTLP_HEADERS). */
  headers?: Record<string, string>;
  /** Which requests are traced (OTEL_TRACES_SAMPLER, as OpenTelemetry names them; default parentbased_traceidratio). */
  sampler: TraceSamplerName;
  /** The share of root requests traced by the ratio samplers (OTEL_TRACES_SAMPLER_ARG, 0–1, default DEFAULT_TRACE_SAMPLE_RATIO). */
  samplerRatio: number;
}

export type TraceSamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

function validTrustProxy(value: string | undefined): boolean {
  try {
    parseTrustProxy(value);
    return true;
  } catch {
    return false;
  }
}

/** Parses the environment; throws an error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const c = parsed.data;
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? 'localhost' : c.HOST}:${c.PORT}`).replace(/\/+$/, '');
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl,
    publishedUrl: (c.PUBLISHED_URL ?? `${publicUrl}/sites`).replace(/\/+$/, ''),
    appUrl: c.APP_URL?.replace(/\/+$/, ''),
    storage: c.DATABASE_URL ? { kind: 'postgres', url: c.DATABASE_URL } : { kind: 'pglite', dataDir: c.DATA_DIR, thread: c.PGLITE_THREAD === 'true' },
    pool: { poolSize: c.DB_POOL_SIZE, connectTimeoutMs: c.DB_CONNECT_TIMEOUT_MS },
    logLevel: c.LOG_LEVEL,
    bootstrapToken: c.BOOTSTRAP_TOKEN,
    translatorUrl: c.TRANSLATOR_URL,
    translator: translatorSettings(c),
    insights:
      c.INSIGHTS_KIND === 'openai'
        ? { kind: 'openai', url: c.INSIGHTS_URL!, model: c.INSIGHTS_MODEL!, apiKey: c.INSIGHTS_API_KEY, timeoutMs: c.PROVIDER_TIMEOUT_MS }
        : { kind: 'heuristic' },
    allowPrivateFetch: c.ALLOW_PRIVATE_FETCH === 'true',
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: c.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: c.HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: c.KEEP_ALIVE_TIMEOUT_MS,
    jobLeaseMs: c.JOB_LEASE_MS,
    jobRetentionDays: c.JOB_RETENTION_DAYS,
    gitSync: { timeoutMs: c.GIT_SYNC_TIMEOUT_MS, maxPackBytes: c.GIT_SYNC_MAX_PACK_BYTES, maxFiles: c.GIT_SYNC_MAX_FILES, maxTotalBytes: c.GIT_SYNC_MAX_DOCS_BYTES, maxAssetBytes: c.GIT_SYNC_MAX_ASSET_BYTES },
    samlSigning: c.SAML_SIGNING_KEY_FILE && c.SAML_SIGNING_CERT_FILE ? { keyFile: c.SAML_SIGNING_KEY_FILE, certFile: c.SAML_SIGNING_CERT_FILE } : undefined,
    rateLimitPerMinute: c.RATE_LIMIT_PER_MINUTE,
    metricsToken: c.METRICS_TOKEN,
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
    cacheReads: c.READ_CACHE === 'on',
    traces: traceSettings(c),
    smtpUrl: c.SMTP_URL,
    files: fileStoreSettings(c),
  };
}

function fileStoreSettings(c: z.output<typeof ConfigSchema>): FileStoreSettings {
  const s3: S3Settings | undefined = c.S3_BUCKET
    ? {
        bucket: c.S3_BUCKET,
        prefix: c.S3_PREFIX,
        region: c.S3_REGION,
        endpoint: c.S3_ENDPOINT,
        forcePathStyle: c.S3_FORCE_PATH_STYLE === 'true',
        credentials: c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY ? { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY } : undefined,
        presignSeconds: c.S3_PRESIGNED_DOWNLOADS === 'true' ? c.S3_PRESIGN_SECONDS : 0,
      }
    : undefined;
  return { backend: c.FILES_BACKEND, dir: c.FILES_DIR ?? join(c.DATA_DIR, 'files'), s3, maxBytes: c.FILES_MAX_BYTES, graceMs: c.FILES_GRACE_HOURS * 3_600_000 };
}

function traceSettings(c: z.output<typeof ConfigSchema>): TraceSettings | undefined {
  const url = c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (c.OTEL_EXPORTER_OTLP_ENDPOINT && `${c.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  if (!url) return undefined;
  return {
    url,
    serviceName: c.OTEL_SERVICE_NAME,
    scheduleDelayMs: c.OTEL_BSP_SCHEDULE_DELAY,
    headers: otlpHeaders(c.OTEL_EXPORTER_OTLP_HEADERS),
    sampler: c.OTEL_TRACES_SAMPLER,
    samplerRatio: c.OTEL_TRACES_SAMPLER_ARG,
  };
}

function translatorSettings(c: z.output<typeof ConfigSchema>): TranslatorSettings {
  const kind = c.TRANSLATOR_KIND ?? (c.TRANSLATOR_URL ? 'libretranslate' : 'copy');
  if (kind === 'copy') return { kind };
  if (kind === 'libretranslate') return { kind, url: c.TRANSLATOR_URL!, apiKey: c.TRANSLATOR_API_KEY, timeoutMs: c.PROVIDER_TIMEOUT_MS };
  return { kind, url: c.TRANSLATOR_URL!, model: c.TRANSLATOR_MODEL!, apiKey: c.TRANSLATOR_API_KEY, timeoutMs: c.PROVIDER_TIMEOUT_MS };
}
