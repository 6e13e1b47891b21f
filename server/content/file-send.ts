// Sends a file's bytes over HTTP from the file store (server/blobs/), streamed: `ETag` (the sha256: a
// file's bytes never change), `If-None-Match` (304), one `Range` (206, or 416 when outside the file;
// several ranges are answered whole, as RFC 9110 allows) with `If-Range`, and HEAD. When the caller allows
// it and the bytes are in S3, a redirect to a short-lived presigned URL instead (the store serves them).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { openBlob, presignedBlobUrl } from '../blobs/blobs.js';
import type { ByteRange } from '../blobs/backend.js';
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { errorBody, RETRY_AFTER_SECONDS } from '../http/errors.js';

export interface SentFile {
  sha256: string;
  size: number;
  contentType: string;
  contentDisposition: string;
}

/** The one range `header` asks of `size` bytes; undefined for none (or several: the whole file), 'unsatisfiable' outside it. */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match) return undefined;
  const [, from, to] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  if (start >= size) return 'unsatisfiable';
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  return end < start ? undefined : { start, end };
}

const etagOf = (sha256: string) => `"${sha256}"`;

function matches(header: string | undefined, etag: string): boolean {
  return !!header && (header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag));
}

/**
 * Answers `req` with the file; `headers` are the caller's own (caching, security). `redirect`: the reader
 * may be sent to a presigned URL of the store. A store that cannot be reached before the first byte is a
 * 503 with Retry-After; one that fails in the middle ends the response (the client sees it cut short).
 */
export async function sendFile(db: Db, req: IncomingMessage, res: ServerResponse, file: SentFile, headers: Record<string, string>, options: { redirect?: boolean } = {}): Promise<void> {
  const etag = etagOf(file.sha256);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('ETag', etag);
  res.setHeader('Accept-Ranges', 'bytes');
  if (matches(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const ifRange = req.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? parseRange(req.headers.range, file.size) : undefined;
  if (range === 'unsatisfiable') {
    res.statusCode = 416;
    res.setHeader('Content-Range', `bytes */${file.size}`);
    res.end();
    return;
  }
  try {
    if (options.redirect && req.method !== 'HEAD') {
      const url = await presignedBlobUrl(db, file.sha256, { contentType: file.contentType, contentDisposition: file.contentDisposition });
      if (url) {
        res.statusCode = 302;
        res.setHeader('Location', url);
        res.setHeader('Cache-Control', 'no-store');
        res.end();
        return;
      }
    }
    const body = req.method === 'HEAD' || file.size === 0 ? undefined : await openBlob(db, file.sha256, range);
    res.statusCode = range ? 206 : 200;
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', file.contentDisposition);
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : file.size));
    if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    if (!body) {
      res.end();
      return;
    }
    await pipeline(body, res);
  } catch (err) {
    if (res.headersSent) {
      res.destroy(err as Error);
      return;
    }
    if (err instanceof ApiError && err.status === 503) {
      res.statusCode = 503;
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      res.setHeader('Content-Type', 'application/json');
      res.removeHeader('ETag');
      res.removeHeader('Content-Disposition');
      res.end(JSON.stringify(errorBody(503, err.message)));
      return;
    }
    throw err;
  }
}
