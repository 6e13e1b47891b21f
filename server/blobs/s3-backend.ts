// Bytes in S3-compatible object storage (AWS S3, MinIO, R2, GCS's S3 API) through the official AWS SDK:
// `<prefix>blobs/<sha256>`, one PUT of a spooled file (its length known, so the body streams from disk),
// GETs with Range streamed straight through, and presigned GETs for downloads that may redirect.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../config.js';
import { BlobMissing, BlobStoreUnavailable, type BlobBackend } from './backend.js';

/** A service answer that is about the object (absent), not about the store being unusable. */
function isMissing(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
}

function unavailable(err: unknown): never {
  const reason = err instanceof S3ServiceException ? `${err.name} (${err.$metadata?.httpStatusCode ?? 'no status'})` : (err as Error).message || String(err);
  throw new BlobStoreUnavailable('s3', reason);
}

export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where S3 requires them: S3-compatible servers differ in their support of the
    // trailing-checksum (aws-chunked) uploads the SDK otherwise makes; our own sha256 is checked anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
  });
}

export function s3Backend(settings: S3Settings, client: S3Client = s3Client(settings)): BlobBackend {
  const Bucket = settings.bucket;
  const keyOf = (sha256: string) => `${settings.prefix}blobs/${sha256}`;
  return {
    kind: 's3',
    async put(_db, sha256, source) {
      const body = 'buffer' in source ? source.buffer : createReadStream(source.path);
      const length = 'buffer' in source ? source.buffer.length : source.size;
      await client.send(new PutObjectCommand({ Bucket, Key: keyOf(sha256), Body: body, ContentLength: length, ContentType: 'application/octet-stream' })).catch(unavailable);
    },
    async open(_db, sha256, _size, range) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(sha256), Range: range && `bytes=${range.start}-${range.end}` }));
        return answer.Body as Readable;
      } catch (err) {
        if (isMissing(err)) throw new BlobMissing(`no object ${keyOf(sha256)} in ${Bucket}`);
        unavailable(err);
      }
    },
    async delete(_db, sha256) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(sha256) })).catch(unavailable);
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket })).catch(unavailable);
    },
    async presign(sha256, headers) {
      if (settings.presignSeconds === 0) return undefined;
      const command = new GetObjectCommand({ Bucket, Key: keyOf(sha256), ResponseContentType: headers.contentType, ResponseContentDisposition: headers.contentDisposition });
      return getSignedUrl(client, command, { expiresIn: settings.presignSeconds });
    },
  };
}
