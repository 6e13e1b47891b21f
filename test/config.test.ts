import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.js';

describe('configuration', () => {
  it('defaults to embedded storage in ./data on 127.0.0.1:3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:3000',
      storage: { kind: 'pglite', dataDir: './data', thread: true },
      logLevel: 'info',
    });
  });

  it('switches to PostgreSQL with DATABASE_URL and trims the public URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app', PUBLIC_URL: 'https://api.example.com/', PORT: '8080' });
    expect(config.storage).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/app' });
    expect(config.publicUrl).toBe('https://api.example.com');
    expect(config.port).toBe(8080);
  });

  it('runs PGlite on the server thread with PGLITE_THREAD=false', () => {
    expect(loadConfig({ PGLITE_THREAD: 'false', DATA_DIR: '/srv/data' }).storage).toEqual({ kind: 'pglite', dataDir: '/srv/data', thread: false });
    expect(() => loadConfig({ PGLITE_THREAD: 'no' })).toThrow(/PGLITE_THREAD: must be true or false/);
  });

  it('reads the Git Sync limits (GIT_SYNC_*), with defaults, and refuses a bad one naming it', () => {
    expect(loadConfig({}).gitSync).toEqual({ timeoutMs: 600_000, maxPackBytes: 1024 ** 3, maxFiles: 10_000, maxTotalBytes: 1024 ** 3, maxAssetBytes: 100 * 1024 ** 2 });
    expect(loadConfig({ GIT_SYNC_MAX_ASSET_BYTES: '20971520' }).gitSync.maxAssetBytes).toBe(20 * 1024 ** 2);
    expect(() => loadConfig({ GIT_SYNC_MAX_ASSET_BYTES: '1mb' })).toThrow(/GIT_SYNC_MAX_ASSET_BYTES/);
    expect(loadConfig({ GIT_SYNC_MAX_DOCS_BYTES: '268435456', GIT_SYNC_TIMEOUT_MS: '120000' }).gitSync).toMatchObject({ maxTotalBytes: 256 * 1024 ** 2, timeoutMs: 120_000 });
    expect(() => loadConfig({ GIT_SYNC_MAX_FILES: '0' })).toThrow(/GIT_SYNC_MAX_FILES/);
  });

  it('refuses bad values, naming each variable', () => {
    const bad = () => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    expect(bad).toThrow(/^Invalid configuration: /);
    expect(bad).toThrow(/PORT: /);
    expect(bad).toThrow(/LOG_LEVEL: /);
    expect(bad).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ BOOTSTRAP_TOKEN: 'short' })).toThrow(/BOOTSTRAP_TOKEN: must be at least 16 characters/);
  });

  it('takes an smtp:// or smtps:// SMTP_URL for invitation mail, and never prints its value', () => {
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    expect(loadConfig({ SMTP_URL: 'smtps://mailer:s3cret@mail.example.com:465' }).smtpUrl).toBe('smtps://mailer:s3cret@mail.example.com:465');
    const bad = () => loadConfig({ SMTP_URL: 'http://mailer:s3cret@mail.example.com' });
    expect(bad).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(bad).not.toThrow(/s3cret/);
  });
});
