// A local S3-compatible server for the tests of the S3 file store (s3rver: S3's REST API over a folder),
// started on a free port with one bucket, and the settings the server's S3 backend takes to reach it.
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, opendirSync, rmSync } from 'node:fs';
import { mkdir, rmdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import type { S3Settings } from '../../server/config.js';

export interface LocalS3 {
  settings: S3Settings;
  /** The same settings as the server's environment (S3_*). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export const TEST_BUCKET = 'docs-files';

/** What of s3rver's folder store (s3rver/lib/stores/filesystem.js, 3.7) this file replaces and uses. */
interface FilesystemStore {
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: unknown }): Promise<{ size: number; md5: string }>;
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  getBucketPath(bucket: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
}

/**
 * s3rver answers a PUT once the bytes went through its MD5, before its write stream has written them to the
 * object's file: a GET right after may read the file empty (the blob mover's read-back saw it under load,
 * `the s3 copy reads back as e3b0c442…`, the SHA-256 of nothing), where S3 reads back what it acknowledged. The
 * same store, answering once the file is written.
 */
function answerPutsOnceWritten(store: FilesystemStore): void {
  store.putObject = async function (this: FilesystemStore, object) {
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(path.dirname(objectPath), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content, counted, createWriteStream(objectPath));
    const digest = md5.digest('hex');
    await this.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

/** Whether a folder has no entry: one entry read, where `readdirSync(dir).length` reads them all. */
function isEmptyFolder(dir: string): boolean {
  const folder = opendirSync(dir);
  try {
    return folder.readSync() === null;
  } finally {
    folder.closeSync();
  }
}

/**
 * s3rver's deleteObject (the same steps: the object's three files removed, then the folders of its key left
 * empty), with each folder's emptiness read from its first entry. s3rver lists the whole folder of the key's
 * prefix at every delete: moving 1,000 blobs out of the bucket (test/blobs-move.test.ts) listed 3,000 entries
 * a thousand times, 1.6 s of that file's 22 s of CPU.
 */
function deleteWithoutListing(store: FilesystemStore): void {
  store.deleteObject = async function (this: FilesystemStore, bucket, key) {
    await Promise.all(
      (['object', 'object.md5', 'metadata.json'] as const).map((resource) =>
        unlink(this.getResourcePath(bucket, key, resource)).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        }),
      ),
    );
    const bucketPath = this.getBucketPath(bucket);
    // The last part is the file name, not a folder.
    const parts = key.split('/').slice(0, -1);
    while (parts.length > 0 && isEmptyFolder(path.join(bucketPath, ...parts))) {
      await rmdir(path.join(bucketPath, ...parts));
      parts.pop();
    }
  };
}

/** Starts s3rver with `bucket`; `stop` closes it and deletes its folder. */
export async function startLocalS3(options: { bucket?: string; prefix?: string; port?: number } = {}): Promise<LocalS3> {
  const bucket = options.bucket ?? TEST_BUCKET;
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ port: options.port ?? 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  answerPutsOnceWritten((server as unknown as { store: FilesystemStore }).store);
  deleteWithoutListing((server as unknown as { store: FilesystemStore }).store);
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
