// A local S3-compatible server for the tests of the S3 file store (s3rver: S3's REST API over a folder),
// started on a free port with one bucket, and the settings the server's S3 backend takes to reach it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../server/config.js';

export interface LocalS3 {
  settings: S3Settings;
  /** The same settings as the server's environment (S3_*). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export const TEST_BUCKET = 'docs-files';

/** Starts s3rver with `bucket`; `stop` closes it and deletes its folder. */
export async function startLocalS3(options: { bucket?: string; prefix?: string; port?: number } = {}): Promise<LocalS3> {
  const bucket = options.bucket ?? TEST_BUCKET;
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ port: options.port ?? 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver takes any key pair it is configured with; these are its defaults.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const prefix = options.prefix ?? 'test/';
  return {
    settings: { bucket, prefix, region: 'us-east-1', endpoint, forcePathStyle: true, credentials, presignSeconds: 300 },
    env: { S3_BUCKET: bucket, S3_PREFIX: prefix, S3_REGION: 'us-east-1', S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: credentials.accessKeyId, S3_SECRET_ACCESS_KEY: credentials.secretAccessKey },
    async stop() {
      await server.close().catch(() => undefined); // stopped already (a test's outage)
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
