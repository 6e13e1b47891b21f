// The embeds of a page as the published site shows them. Rendering never waits on a provider for a URL
// already known: the cache answers. A URL missing from the cache is fetched once, within a short deadline, before
// the page is first rendered (later readers get the page from the site's caches); past the deadline the
// page shows the plain link, and the fetch goes on for the next rendering.
import { childrenOf } from '../content/document-walk.js';
import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import type { Block, EmbedCard } from '../content/markdown-document.js';
import { allowedIframeSource } from './embed-html.js';
import { cachedEmbed, embedOf, embedUrl, type Embed, type EmbedLog } from './embeds.js';

/** How long a first rendering waits for the embeds missing from the cache. */
const renderDeadlineMs = 2000;

/** The URLs of the embed blocks of a document, as embeds name them; malformed ones left out. */
export function embedUrlsOf(nodes: Block['nodes']): string[] {
  const urls: string[] = [];
  for (const node of nodes ?? []) {
    if (node.object !== 'block') continue;
    const url = (node.data as { url?: unknown } | undefined)?.url;
    if (node.type === 'embed' && typeof url === 'string') {
      try {
        urls.push(embedUrl(url));
      } catch {
        // Not an http(s) URL: shown as the plain link it is.
      }
    }
    urls.push(...embedUrlsOf(childrenOf(node)));
  }
  return urls;
}

/** Fetches the embeds of `urls` missing from the cache, waiting for them at most the render deadline. */
export async function warmEmbeds(urls: string[], log: EmbedLog): Promise<void> {
  const missing = urls.filter((u) => cachedEmbed(u) === undefined);
  if (missing.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, renderDeadlineMs);
  });
  await Promise.race([Promise.all(missing.map((u) => embedOf(u, log))), deadline]);
  clearTimeout(timer);
}

function firstAllowedIframe(node: Nodes): Element | undefined {
  if (node.type === 'element' && node.tagName === 'iframe' && allowedIframeSource(node.properties.src)) return node;
  if (!('children' in node)) return undefined;
  for (const child of node.children) {
    const found = firstAllowedIframe(child as Nodes);
    if (found) return found;
  }
  return undefined;
}

/** The card of an embed: its player when its (sanitized) HTML holds an allowed iframe. */
export function cardOf(embed: Embed): EmbedCard {
  const iframe = embed.type === 'rich' ? firstAllowedIframe(fromHtml(embed.html, { fragment: true })) : undefined;
  const src = iframe?.properties.src;
  return {
    title: embed.title,
    site: embed.site,
    ...(embed.icon && { icon: embed.icon }),
    ...(typeof src === 'string' && { frame: { src, title: typeof iframe?.properties.title === 'string' ? iframe.properties.title : embed.title } }),
  };
}

/** The card of `url` (a block's URL, as written) when its embed is in the cache. */
export function cachedCard(url: string): EmbedCard | undefined {
  let key: string;
  try {
    key = embedUrl(url);
  } catch {
    return undefined;
  }
  const embed = cachedEmbed(key);
  return embed && cardOf(embed);
}
