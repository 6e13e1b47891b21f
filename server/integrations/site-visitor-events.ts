// Events a site's visitors cause: `site_view` (a page of the published site was served to them) and
// `page_feedback` (they rated a page, server/published/page-feedback.ts). An installation covering the site
// receives them when its integration has the scope GitBook asks for: `site:views:read` for `site_view`,
// `page:feedback:read` for `page_feedback`. Who those are is read with the site itself, in the published
// site's one statement (siteEventSubscribersJsonSql, site-data.ts), so a site nobody subscribes to costs a
// page view nothing more.
// A view is never recorded on the request's path: the page is answered first, and the views wait in a bounded
// queue of this process that one writer empties into the events table (each event's delivery then goes
// through the job runner as every event does, delivery.job.ts). When views arrive faster than the database
// takes them and the queue is full, the newest are dropped and counted: a reader's page never waits on them.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import cookie from 'cookie';
import type { Db } from '../db/client.js';
import { clientAddress } from '../http/proxy-trust.js';
import { recordEvents } from './events.store.js';

/** An installation that receives a site's visitor events, and which ones. */
export interface SiteEventSubscriber {
  installationId: string;
  integrationName: string;
  organizationId: string;
  views: boolean;
  feedback: boolean;
}

/**
 * The SQL of the installations covering site `siteId` (an SQL expression) whose integration has
 * `site:views:read` or `page:feedback:read`, as one JSON array of `[installation id, integration name,
 * organization id, views, feedback]`, or null when there are none. The site's served stamp changes with
 * any of it (installations, site installations, an integration's scopes: migration 0045), so it is read
 * with the site and kept as long as the site is.
 */
export function siteEventSubscribersJsonSql(siteId: string): string {
  return `(SELECT json_agg(json_build_array(inst.id, i.name, inst.organization_id,
            'site:views:read' = ANY(i.scopes), 'page:feedback:read' = ANY(i.scopes)) ORDER BY inst.id)
        FROM integration_installations inst
        JOIN integrations i ON i.name = inst.integration_name
        JOIN sites s ON s.id = ${siteId} AND s.organization_id = inst.organization_id
        WHERE inst.status = 'active' AND i.scopes && ARRAY['site:views:read', 'page:feedback:read']::text[]
          AND (inst.site_selection = 'all' OR EXISTS (SELECT 1 FROM integration_site_installations si
                 WHERE si.installation_id = inst.id AND si.site_id = s.id AND si.status = 'active')))`;
}

/** The subscribers of what siteEventSubscribersJsonSql answered. */
export function siteEventSubscribersOf(json: unknown): SiteEventSubscriber[] {
  const rows = (Array.isArray(json) ? json : []) as [string, string, string, boolean, boolean][];
  return rows.map(([installationId, integrationName, organizationId, views, feedback]) => ({ installationId, integrationName, organizationId, views: views === true, feedback: feedback === true }));
}

/** GitBook's EventVisitor: who the visitor is, as the request shows. */
export interface EventVisitor {
  anonymousId: string;
  cookies: Record<string, string>;
  userAgent: string;
  ip: string;
  language?: string;
}

/** The cookies of the request, but this server's own (`dw_…`: visitor tokens and claims, never an integration's to read). */
function visitorCookies(header: string | undefined): Record<string, string> {
  const all = cookie.parse(header ?? '');
  return Object.fromEntries(Object.entries(all).filter(([name]) => !name.startsWith('dw_')));
}

/**
 * The visitor of a request. `anonymousId` is the `anonymousId` cookie an integration's script may set (what
 * GitBook's own tracking keeps), else a digest of the site, address and user agent: the same reader gets
 * the same id on the site without this server setting a cookie of its own.
 */
export function eventVisitor(req: IncomingMessage, siteId: string): EventVisitor {
  const cookies = visitorCookies(req.headers.cookie);
  const ip = clientAddress(req);
  const userAgent = req.headers['user-agent'] ?? '';
  const language = req.headers['accept-language']?.split(',', 1)[0].split(';', 1)[0].trim();
  const anonymousId = cookies.anonymousId || `anon_${digest(`${siteId}\u0000${ip}\u0000${userAgent}`)}`;
  return { anonymousId, cookies, userAgent, ip, ...(language && { language }) };
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** A page served to a visitor: what `site_view` says of it (the fields beside the installation's). */
export interface SiteView {
  siteId: string;
  siteSpaceId: string;
  spaceId: string;
  pageId: string;
  visitor: EventVisitor;
  url: string;
  referrer: string;
}

/** The most views waiting to be written; beyond, new ones are dropped (counted in `droppedSiteViews`). */
export const SITE_VIEW_QUEUE_LIMIT = 1000;

interface Pending {
  db: Db;
  now: Date;
  view: SiteView;
  to: SiteEventSubscriber[];
}

const pending: Pending[] = [];
let writing: Promise<void> | undefined;
let dropped = 0;

/** How many views were dropped because the queue was full, since the process started. */
export function droppedSiteViews(): number {
  return dropped;
}

/**
 * Queues `site_view` for each subscriber with `site:views:read` (none: nothing happens); returns at once. The
 * writer records them after the current request's work, in order.
 */
export function queueSiteView(db: Db, now: Date, view: SiteView, subscribers: SiteEventSubscriber[]): void {
  const to = subscribers.filter((s) => s.views);
  if (to.length === 0) return;
  if (pending.length >= SITE_VIEW_QUEUE_LIMIT) {
    dropped++;
    return;
  }
  pending.push({ db, now, view, to });
  writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(writeAll).finally(() => {
    writing = undefined;
  });
}

async function writeAll(): Promise<void> {
  while (pending.length > 0) {
    const { db, now, view, to } = pending.shift()!;
    try {
      await db.transaction((tx) =>
        recordEvents(tx, now, to.map((s) => ({ integrationName: s.integrationName, type: 'site_view' as const, installationId: s.installationId, organizationId: s.organizationId, fields: { ...view } }))),
      );
    } catch (err) {
      // A view that could not be written is lost, as one dropped is: the reader was answered long ago.
      console.error(`site_view of page ${view.pageId} on site ${view.siteId} not recorded: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** Resolves once every queued view is written (tests, and a server that stops). */
export async function siteViewsWritten(): Promise<void> {
  while (writing) await writing;
}

/** A page's rating by a visitor: what `page_feedback` says (the fields beside the installation's). */
export interface PageFeedback {
  siteId: string;
  spaceId: string;
  pageId: string;
  feedback: { rating: 'bad' | 'ok' | 'good'; comment?: string };
  visitor: EventVisitor;
  url: string;
  referrer: string;
}

/** Records `page_feedback` for each subscriber with `page:feedback:read`, in one transaction; returns how many. */
export async function recordPageFeedback(db: Db, now: Date, feedback: PageFeedback, subscribers: SiteEventSubscriber[]): Promise<number> {
  const to = subscribers.filter((s) => s.feedback);
  if (to.length === 0) return 0;
  await recordEvents(db, now, to.map((s) => ({ integrationName: s.integrationName, type: 'page_feedback' as const, installationId: s.installationId, organizationId: s.organizationId, fields: { ...feedback } })));
  return to.length;
}
