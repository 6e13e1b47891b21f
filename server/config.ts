// Configuration from the environment, parsed once at start: a bad value stops the process with a clear message.
import { z } from 'zod';

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  LOG_LEVEL: LogLevel.default('info'),
  BOOTSTRAP_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TRANSLATOR_URL: z.url().optional(),
});

export interface Config {
  port: number;
  host: string;
  /** Base of every absolute URL the API returns (`urls.location`, …), without a trailing slash. */
  publicUrl: string;
  storage: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };
  logLevel: z.infer<typeof LogLevel>;
  bootstrapToken?: string;
  /** LibreTranslate-compatible server the translation runs use; absent: text is copied unchanged. */
  translatorUrl?: string;
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
    storage: c.DATABASE_URL ? { kind: 'postgres', url: c.DATABASE_URL } : { kind: 'pglite', dataDir: c.DATA_DIR },
    logLevel: c.LOG_LEVEL,
    bootstrapToken: c.BOOTSTRAP_TOKEN,
    translatorUrl: c.TRANSLATOR_URL,
  };
}
