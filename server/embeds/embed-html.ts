// The HTML of an oEmbed answer, made safe to show: sanitized with rehype-sanitize (GitHub's schema, the
// published site's sanitizer, plus iframes), then every iframe whose source is not an https URL of an
// allowed provider removed. Only an answer that keeps an iframe is shown as HTML (embeds.ts); anything
// else is a link card.
import type { Element, Nodes, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';

/** Hosts whose players an embed may show in an iframe. */
export const iframeHosts = new Set([
  'www.youtube.com',
  'youtube.com',
  'www.youtube-nocookie.com',
  'player.vimeo.com',
  'www.loom.com',
  'www.figma.com',
  'embed.figma.com',
  'codepen.io',
  'codesandbox.io',
  'open.spotify.com',
  'w.soundcloud.com',
  'www.google.com',
  'miro.com',
  'player.twitch.tv',
]);

const schema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), 'iframe'],
  attributes: {
    ...defaultSchema.attributes,
    iframe: ['src', 'title', 'width', 'height', 'allow', 'allowFullScreen', 'loading', 'referrerPolicy', 'frameBorder'],
  },
  protocols: { ...defaultSchema.protocols, src: ['https'] },
};

const processor = unified().use(rehypeSanitize, schema).use(rehypeStringify).freeze();

/** Whether `src` is an https URL of an allowed provider. */
export function allowedIframeSource(src: unknown): src is string {
  if (typeof src !== 'string') return false;
  try {
    const url = new URL(src);
    return url.protocol === 'https:' && iframeHosts.has(url.hostname);
  } catch {
    return false;
  }
}

/** Removes, in place, every iframe whose source is not allowed; returns how many stay. */
function keepAllowedIframes(node: Nodes): number {
  if (!('children' in node)) return 0;
  let kept = 0;
  node.children = (node.children as Nodes[]).filter((child) => {
    if (child.type === 'element' && (child as Element).tagName === 'iframe') {
      if (!allowedIframeSource((child as Element).properties.src)) return false;
      kept++;
      (child as Element).properties.loading = 'lazy';
    }
    kept += keepAllowedIframes(child);
    return true;
  }) as typeof node.children;
  return kept;
}

/** The provider's HTML sanitized, with only allowed iframes; undefined when no allowed iframe is left. */
export function safeEmbedHtml(html: string): string | undefined {
  const tree = processor.runSync(fromHtml(html.slice(0, 100_000), { fragment: true })) as Root;
  if (keepAllowedIframes(tree) === 0) return undefined;
  return String(processor.stringify(tree)).trim();
}
