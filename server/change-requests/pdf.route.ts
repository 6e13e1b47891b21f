// GET /v1/pdf/{spaceId}/{changeRequestId}.pdf?token=…: the PDF behind a link of getChangeRequestPDF
// (see pdf-links.ts). Served before authentication: the token is the permission. Its path is the
// contract's (downloadChangeRequestPDF, contract/downloads.ts).
import type { RequestHandler } from 'express';
import type { Db } from '../db/client.js';
import { errorBody } from '../http/errors.js';
import { downloadPdf } from './pdf-links.js';

/** The Express handler serving change-request PDFs: 404 for an unknown or mismatched link, 410 once expired. */
export function changeRequestPdfRoute(db: Db, now: () => Date): RequestHandler {
  return async (req, res, next) => {
    try {
      const { spaceId, file } = req.params as { spaceId: string; file: string };
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const changeRequestId = file.endsWith('.pdf') ? file.slice(0, -'.pdf'.length) : '';
      const found = token && changeRequestId ? await downloadPdf(db, { spaceId, changeRequestId, token }, now()) : { status: 'unknown' as const };
      if (found.status === 'unknown') {
        res.status(404).json(errorBody(404, 'No PDF at this address: the link is unknown, or no longer kept'));
        return;
      }
      if (found.status === 'expired') {
        res.status(410).json(errorBody(410, 'This PDF link has expired; ask the API for a new one (getChangeRequestPDF)'));
        return;
      }
      res
        .status(200)
        .set({
          'Content-Type': 'application/pdf',
          'Content-Disposition': `inline; filename="${found.filename}"`,
          'Cache-Control': 'private, no-store',
          // The URL is the credential: do not send it on to sites linked from the PDF.
          'Referrer-Policy': 'no-referrer',
          'X-Content-Type-Options': 'nosniff',
        })
        .send(found.pdf);
    } catch (err) {
      next(err);
    }
  };
}
