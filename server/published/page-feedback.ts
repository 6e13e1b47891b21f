// A reader's rating of a page: the form under each page of a site whose customization has `feedback.enabled`
// (page-html.ts) posts to `<site>/~feedback/<page path>` with `rating` (`bad`, `ok`, `good`) and an optional
// `comment` (1 to 512 characters). The page must be one the reader may read there (the same resolution as
// the page's own URL). The rating becomes the `page_feedback` event of every installation on the site whose
// integration has `page:feedback:read` (server/integrations/site-visitor-events.ts); this server keeps no
// rating of its own. Bad input is a 400 naming the field; a site without feedback, or a page the reader
// cannot see, the site's 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Visitor } from '../conditions/evaluate.js';
import { resolveInSite } from '../headless/resolve.js';
import { sendText } from '../http/node-http.js';
import { eventVisitor, recordPageFeedback } from '../integrations/site-visitor-events.js';
import { siteCustomization, siteSpaceCustomization } from '../sites/customization.js';
import type { Db } from '../db/client.js';
import { joinPath } from './navigation.js';
import { feedbackThanksHtml } from './page-html.js';
import type { FoundSite } from './site-data.js';

/** The first segment of a page's feedback URL under the site. */
export const FEEDBACK_SEGMENT = '~feedback';
/** The largest form accepted: a rating and a comment of 512 characters, escaped, fit well within it. */
const MAX_FORM_BYTES = 8 * 1024;
const ratings = ['bad', 'ok', 'good'] as const;

/** Whether pages of this place show the rating form. */
export function feedbackEnabled(customization: { feedback?: { enabled: boolean } }): boolean {
  return customization.feedback?.enabled === true;
}

/** The body of the request, or undefined when it is larger than `limit` bytes. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Checks the form; the rating and comment, or the message of the 400 naming the field. */
export function parseFeedbackForm(body: string): { rating: (typeof ratings)[number]; comment?: string } | { error: string } {
  const form = parseQuery(body);
  const rating = one(form.rating);
  if (rating === undefined) return { error: 'rating: required, one of bad, ok, good' };
  if (!(ratings as readonly string[]).includes(rating)) return { error: `rating: must be one of bad, ok, good (got ${JSON.stringify(rating.slice(0, 40))})` };
  const comment = one(form.comment)?.trim();
  if (comment && [...comment].length > 512) return { error: 'comment: at most 512 characters' };
  return { rating: rating as (typeof ratings)[number], ...(comment && { comment }) };
}

export interface FeedbackPlace {
  db: Db;
  found: FoundSite;
  visitor: Visitor;
  /** The site's home on this host (with a share-link key). */
  base: string;
  /** The page's path below the site (after `~feedback`). */
  segments: string[];
  /** The origin the site is served at. */
  origin: string;
  notFound: () => void;
}

/** Answers `POST <site>/~feedback/<page path>`. */
export async function answerPageFeedback(req: IncomingMessage, res: ServerResponse, place: FeedbackPlace): Promise<void> {
  const { db, found, visitor, base, segments } = place;
  const resolved = await resolveInSite(db, found, visitor, segments);
  const variant = resolved.nav.variant;
  const customization = variant ? siteSpaceCustomization(found.site, variant.row) : siteCustomization(found.site);
  if (!variant || !resolved.target || resolved.redirect || !feedbackEnabled(customization)) return place.notFound();
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return sendText(req, res, 415, 'text/plain', 'The rating is sent as a form (application/x-www-form-urlencoded).\n');
  }
  const body = await readBody(req, MAX_FORM_BYTES);
  if (!body) return sendText(req, res, 413, 'text/plain', `The form is larger than ${MAX_FORM_BYTES} bytes.\n`);
  const form = parseFeedbackForm(body.toString('utf8'));
  if ('error' in form) return sendText(req, res, 400, 'text/plain', `${form.error}\n`);
  const pageHref = `${base}/${joinPath(...segments)}`;
  await recordPageFeedback(db, new Date(), {
    siteId: found.site.id,
    spaceId: variant.space.id,
    pageId: resolved.target.page.id,
    feedback: form,
    visitor: eventVisitor(req, found.site.id),
    url: `${place.origin}${pageHref}`,
    referrer: req.headers.referer ?? '',
  }, found.subscribers);
  res.setHeader('Cache-Control', 'no-store');
  sendText(req, res, 200, 'text/html', feedbackThanksHtml(resolved.target.page.title, pageHref));
}
