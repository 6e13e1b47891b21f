// What an embed of a URL shows (getEmbedByUrlInSpace, and the published site's embed blocks). The page is
// fetched through the outbound guard (server/http/outbound.ts: public addresses only, a deadline, a cap on
// bytes); when it announces an oEmbed endpoint, the provider's answer is used, else its Open Graph and HTML
// metadata. A URL that cannot be read is still shown, as a link titled with the URL. Answers are kept in
// a bounded cache (an hour; a failure a minute, so a dead link does not cost every reader a fetch), and
// concurrent askers of one URL share one fetch.
import { LRUCache } from 'lru-cache';
import type { components } from '../../generated/types.js';
import { BadRequest } from '../errors.js';
import { outboundRequest, type OutboundLimits } from '../http/outbound.js';
import { safeEmbedHtml } from './embed-html.js';
import { httpUrl, readPageMetadata, type PageMetadata } from './page-metadata.js';

export type Embed = components['schemas']['Embed'];

export const embedLimits: OutboundLimits = { timeoutMs: 5000, maxBytes: 1024 * 1024 };
const okTtlMs = 60 * 60 * 1000;
const failedTtlMs = 60 * 1000;

interface Kept {
  embed: Embed;
  failed: boolean;
}

const cache = new LRUCache<string, Kept>({ max: 5000, ttl: okTtlMs });
const pending = new Map<string, Promise<Embed>>();

/** The URL as an embed names it (http or https, no fragment); 400 naming the field otherwise. */
export function embedUrl(raw: string, at = 'query.url'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequest(`${at}: ${JSON.stringify(raw.slice(0, 100))} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequest(`${at}: only http and https URLs can be embedded`);
  if (url.username || url.password) throw new BadRequest(`${at}: a URL with credentials cannot be embedded`);
  url.hash = '';
  return url.href;
}

const headers = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': 'docs-workspace-api embeds (+oEmbed, Open Graph)' };

/** The link card of a URL nothing better is known of. */
function linkOf(url: string, metadata: PageMetadata = {}): Embed {
  return {
    type: 'link',
    title: metadata.title ?? url,
    site: metadata.siteName ?? new URL(url).hostname,
    ...((metadata.icon ?? metadata.image) && { icon: metadata.icon ?? metadata.image }),
  };
}

interface OEmbedAnswer {
  title?: unknown;
  provider_name?: unknown;
  thumbnail_url?: unknown;
  html?: unknown;
}

/** The provider's oEmbed answer, or undefined when it cannot be read. */
async function readOEmbed(endpoint: string): Promise<OEmbedAnswer | undefined> {
  try {
    const res = await outboundRequest(endpoint, embedLimits, { origin: 'user', headers: { ...headers, accept: 'application/json' } });
    if (res.status < 200 || res.status > 299) return undefined;
    const parsed: unknown = JSON.parse(res.body.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as OEmbedAnswer) : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 500) : undefined);

/** Fetches and reads the page; throws when it cannot be read as HTML. */
async function resolve(url: string): Promise<Embed> {
  const res = await outboundRequest(url, embedLimits, { origin: 'user', headers });
  if (res.status < 200 || res.status > 299) throw new Error(`${url} answered ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  if (!/text\/html|application\/xhtml\+xml/i.test(type)) throw new Error(`${url} is not an HTML page (${type})`);
  const metadata = readPageMetadata(res.body.toString('utf8'), url);
  const oembed = metadata.oembed ? await readOEmbed(metadata.oembed) : undefined;
  if (!oembed) return linkOf(url, metadata);
  const card = linkOf(url, {
    ...metadata,
    ...(str(oembed.title) && { title: str(oembed.title) }),
    ...(str(oembed.provider_name) && { siteName: str(oembed.provider_name) }),
    ...(!metadata.icon && httpUrl(str(oembed.thumbnail_url), url) && { icon: httpUrl(str(oembed.thumbnail_url), url) }),
  });
  const html = typeof oembed.html === 'string' ? safeEmbedHtml(oembed.html) : undefined;
  return html ? { type: 'rich', title: card.title, site: card.site, ...(card.icon && { icon: card.icon }), html } : card;
}

/** Where a fetch that failed is said (the asker's logger: a request's, or the site server's). */
export interface EmbedLog {
  warn(fields: object, message: string): void;
}

/**
 * What an embed of `url` (as embedUrl gives it) shows: from the cache, or fetched once for every asker. A
 * page that cannot be read is shown as its link, and why is logged (a dead link or a provider refusing us
 * is otherwise invisible).
 */
export async function embedOf(url: string, log: EmbedLog): Promise<Embed> {
  const kept = cache.get(url);
  if (kept) return kept.embed;
  let made = pending.get(url);
  if (!made) {
    made = resolve(url)
      .then((embed) => {
        cache.set(url, { embed, failed: false });
        return embed;
      })
      .catch((err: unknown) => {
        log.warn({ url, reason: err instanceof Error ? err.message : String(err) }, 'embed: the page could not be read; shown as a link');
        const embed = linkOf(url);
        cache.set(url, { embed, failed: true }, { ttl: failedTtlMs });
        return embed;
      })
      .finally(() => pending.delete(url));
    pending.set(url, made);
  }
  return made;
}

/** The embed of `url` when it is in the cache (no fetch): what a page renders from. */
export function cachedEmbed(url: string): Embed | undefined {
  return cache.get(url)?.embed;
}

/** Empties the cache (tests). */
export function forgetEmbeds(): void {
  cache.clear();
}
