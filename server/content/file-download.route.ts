// GET /v1/files/{spaceId}/{fileId}/{name}?expires=…&signature=…: the bytes behind a file's `downloadURL`
// (see file-links.ts). Served before authentication: the signature is the permission. Its path is the
// contract's (downloadFile, contract/downloads.ts). Streamed from the file store, with Range and ETag
// (file-send.ts); bytes in S3 redirect to a presigned URL of a few minutes (S3_PRESIGNED_DOWNLOADS).
import type { RequestHandler } from 'express';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { contentFiles, spaces } from '../db/schema/index.js';
import { errorBody } from '../http/errors.js';
import { checkFileLink } from './file-links.js';
import { sendFile } from './file-send.js';

/** Types a browser may show in place; anything else (HTML, SVG, scripts, …) downloads, so it cannot run as this server's page. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'application/pdf', 'text/plain', 'video/mp4', 'audio/mpeg']);

/** `inline` or `attachment`, with the name both as plain ASCII and, exactly, as RFC 5987 UTF-8. */
export function contentDisposition(name: string, contentType: string): string {
  const type = INLINE_TYPES.has(contentType.toLowerCase()) ? 'inline' : 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export function fileDownloadRoute(db: Db, now: () => Date): RequestHandler {
  return async (req, res, next) => {
    try {
      const { spaceId, fileId } = req.params as { spaceId: string; fileId: string };
      const expires = typeof req.query.expires === 'string' ? req.query.expires : '';
      const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
      const check = await checkFileLink(db, { spaceId, fileId, expires, signature }, now());
      if (check === 'bad') {
        res.status(404).json(errorBody(404, 'No file at this address: the link is not one this server made'));
        return;
      }
      if (check === 'expired') {
        res.status(410).json(errorBody(410, 'This file link has expired; read the file again from the API for a new one'));
        return;
      }
      const [row] = await db
        .select({ file: contentFiles })
        .from(contentFiles)
        .innerJoin(spaces, eq(spaces.id, contentFiles.spaceId))
        .where(and(eq(contentFiles.spaceId, spaceId), eq(contentFiles.fileId, fileId), isNull(spaces.deletedAt)));
      if (!row) {
        res.status(404).json(errorBody(404, 'No file at this address: the file or its space no longer exists'));
        return;
      }
      const { file } = row;
      // The signed link is the reader's whole permission, so the bytes may come from the store itself.
      await sendFile(
        db,
        req,
        res,
        { sha256: file.sha256, size: file.size, contentType: file.contentType, contentDisposition: contentDisposition(file.name, file.contentType) },
        {
          'Cache-Control': 'private, max-age=300',
          // The URL is the credential: do not send it on; the bytes never run as a page of this server.
          'Referrer-Policy': 'no-referrer',
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; sandbox",
        },
        { redirect: true },
      );
    } catch (err) {
      next(err);
    }
  };
}
