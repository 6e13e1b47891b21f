// The HTML a published page shows for a ContentKit tree an integration rendered (its `ui_render` answer): read
// only, for readers (buttons and inputs show, nothing acts). The tree is untrusted: it is built as a hast tree
// (hastscript) and written by hast-util-to-html, which escapes every text and attribute; markdown goes through
// the same sanitizing remark -> rehype steps as pages (GitHub's schema); links and images keep only http(s)
// URLs. A `webframe` becomes an iframe with `sandbox="allow-scripts allow-popups"` (no `allow-same-origin`:
// its document runs in an opaque origin of its own, whatever URL it comes from, and cannot reach the page,
// its cookies or storage), its data, with dynamic bindings resolved from the state, in `data-contentkit-state`
// for the page's webframe host (webframe-host.ts) to post it as GitBook's renderer does.
import type { Element, ElementContent, Root } from 'hast';
import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

type Node = Record<string, unknown>;
type State = Record<string, unknown>;

/** What rendering found that the page needs: the origins its webframes load from (for its frame-src). */
export interface ContentKitHtml {
  html: string;
  frameOrigins: string[];
}

const markdown = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize).freeze();
/** Deepest tree rendered: an integration's answer is bounded, its nesting too. */
const MAX_DEPTH = 32;

/** A URL an element may point to: http(s) only, as written (a ContentKitURL object is built into one). */
function safeUrl(value: unknown): string | undefined {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (value && typeof value === 'object' && typeof (value as Node).host === 'string') {
    const u = value as { host: string; pathname?: string; query?: Record<string, unknown> };
    const query = new URLSearchParams(Object.entries(u.query ?? {}).filter(([, v]) => typeof v === 'string') as [string, string][]).toString();
    text = `https://${u.host}${typeof u.pathname === 'string' ? u.pathname : ''}${query ? `?${query}` : ''}`;
  }
  if (text === undefined) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** A value of the tree, with a dynamic binding (`{ $state: key }`) read from the state. */
function bound(value: unknown, state: State): unknown {
  if (value && typeof value === 'object' && typeof (value as Node).$state === 'string') return state[(value as Node).$state as string];
  return value;
}

function textOf(value: unknown, state: State): string {
  const v = bound(value, state);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

class Renderer {
  readonly frameOrigins = new Set<string>();
  constructor(private readonly state: State) {}

  children(value: unknown, depth: number): ElementContent[] {
    if (typeof value === 'string') return [{ type: 'text', value }];
    if (!Array.isArray(value)) return [];
    return value.flatMap((child) => this.node(child, depth + 1));
  }

  node(value: unknown, depth: number): ElementContent[] {
    if (typeof value === 'string') return [{ type: 'text', value }];
    if (!value || typeof value !== 'object' || depth > MAX_DEPTH) return [];
    const node = value as Node;
    const kids = () => this.children(node.children, depth);
    switch (node.type) {
      case 'block':
      case 'configuration':
        return [h('div', { className: ['contentkit', `contentkit-${node.type}`] }, kids())];
      case 'vstack':
      case 'hstack':
        return [h('div', { className: [`contentkit-${node.type}`, `contentkit-align-${typeof node.align === 'string' ? node.align.replace(/[^a-z]/g, '') : 'start'}`] }, kids())];
      case 'box':
        return [h('div', { className: ['contentkit-box'] }, kids())];
      case 'divider':
        return [h('hr', { className: ['contentkit-divider'] })];
      case 'text': {
        const tag = ({ bold: 'strong', italic: 'em', code: 'code', strikethrough: 's' } as Record<string, string>)[node.style as string] ?? 'span';
        return [h(tag, kids())];
      }
      case 'link': {
        const href = safeUrl((node.target as Node | undefined)?.url);
        return [href ? h('a', { href, rel: 'nofollow noopener', target: '_blank' }, kids()) : h('span', kids())];
      }
      case 'hint':
        return [h('p', { className: ['contentkit-hint'] }, kids())];
      case 'markdown': {
        const tree = markdown.runSync(markdown.parse(textOf(node.content, this.state))) as Root;
        return [h('div', { className: ['contentkit-markdown'] }, tree.children as ElementContent[])];
      }
      case 'codeblock': {
        const syntax = typeof node.syntax === 'string' ? node.syntax.replace(/[^\w+-]/g, '') : '';
        return [
          h('div', { className: ['contentkit-codeblock'] }, [
            ...this.children(node.header, depth),
            h('pre', [h('code', { className: syntax ? [`language-${syntax}`] : [] }, textOf(node.content, this.state))]),
            ...this.children(node.footer, depth),
          ]),
        ];
      }
      case 'image': {
        const src = safeUrl((node.source as Node | undefined)?.url);
        return src ? [h('img', { src, alt: '', loading: 'lazy', className: ['contentkit-image'] })] : [];
      }
      case 'card': {
        const href = safeUrl(node.onPress && (node.onPress as Node).url);
        const title = typeof node.title === 'string' ? [h('strong', node.title)] : [];
        const hint = typeof node.hint === 'string' ? [h('span', { className: ['contentkit-card-hint'] }, node.hint)] : this.children(node.hint, depth);
        const body = [...title, ...hint, ...kids()];
        return [href ? h('a', { className: ['contentkit-card'], href, rel: 'nofollow noopener', target: '_blank' }, body) : h('div', { className: ['contentkit-card'] }, body)];
      }
      case 'button': {
        // Actions run in GitBook's editor, not for readers: a button that opens a URL is a link, the others show.
        const href = safeUrl(node.onPress && (node.onPress as Node).url);
        const label = typeof node.label === 'string' ? node.label : typeof node.tooltip === 'string' ? node.tooltip : '';
        return [href ? h('a', { className: ['contentkit-button'], href, rel: 'nofollow noopener', target: '_blank' }, label) : h('button', { type: 'button', disabled: true, className: ['contentkit-button'] }, label)];
      }
      case 'webframe':
        return this.webframe(node);
      default:
        // Inputs, selects, modals…: editor controls, nothing for a reader; their children may still say something.
        return kids();
    }
  }

  webframe(node: Node): ElementContent[] {
    const src = safeUrl((node.source as Node | undefined)?.url);
    if (!src) return [];
    this.frameOrigins.add(new URL(src).origin);
    const data: Record<string, unknown> = {};
    for (const [key, value] of Object.entries((node.data as Node | undefined) ?? {})) data[key] = bound(value, this.state);
    const ratio = typeof node.aspectRatio === 'number' && node.aspectRatio > 0 && Number.isFinite(node.aspectRatio) ? node.aspectRatio : 16 / 9;
    const frame: Element = h('iframe', {
      src,
      title: 'Integration content',
      loading: 'lazy',
      sandbox: 'allow-scripts allow-popups',
      referrerPolicy: 'no-referrer',
      style: `width:100%;border:0;aspect-ratio:${Math.round(ratio * 1000) / 1000}`,
      className: ['contentkit-webframe'],
      dataContentkitState: JSON.stringify(data),
    });
    return [frame];
  }
}

/** The HTML of a ContentKit element tree (`element` of a ui_render answer) with its `state`. */
export function contentKitHtml(element: unknown, state: State = {}): ContentKitHtml {
  const renderer = new Renderer(state);
  const tree: Root = { type: 'root', children: renderer.node(element, 0) };
  return { html: toHtml(tree), frameOrigins: [...renderer.frameOrigins] };
}
