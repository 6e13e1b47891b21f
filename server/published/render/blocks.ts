// The published page's blocks as a reader sees them, built after sanitizing (so what is added here is ours;
// what comes from the page is text, or URLs the sanitizer checked): GitBook's block tags from their
// placeholders (liquid-hast.ts), math (math.ts), code (code.ts), tables in cards view, figures with zoom,
// buttons (with their icon; an action button opens the search), icons, mention chips, custom blocks in
// lists and footnote references (annotations). Each block reads with scripts off; the client script
// (site-script.ts) adds switching tabs, copying, zooming, action buttons and footnote popovers.
import type { Element, ElementContent, Parent, Root, RootContent } from 'hast';
import type { HighlighterCore } from 'shiki/core';
import type { EmbedCard } from '../../content/markdown-document.js';
import { allowedIframeSource } from '../../embeds/embed-html.js';
import { codeBlock } from './code.js';
import { mathHtml } from './math.js';

export interface BlockContext {
  highlighter: HighlighterCore;
  embed: (url: string) => EmbedCard | undefined;
}

type Child = RootContent | ElementContent;

const el = (tagName: string, properties: Element['properties'], children: ElementContent[] = []): Element => ({ type: 'element', tagName, properties, children });
const text = (value: string): ElementContent => ({ type: 'text', value });
const classes = (node: Element): string[] => (Array.isArray(node.properties.className) ? node.properties.className.map(String) : []);
const hasClass = (node: Child, name: string): boolean => node.type === 'element' && classes(node).includes(name);
const prop = (node: Element, name: string): string | undefined => (node.properties[name] === undefined || node.properties[name] === null ? undefined : String(node.properties[name]));
const elements = (node: Parent): Element[] => node.children.filter((c): c is Element => c.type === 'element');

/** The text of a node, as a reader reads it. */
export function textOf(node: Child | Root): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' || node.type === 'root') return node.children.map((c) => textOf(c as Child)).join('');
  return '';
}

/** The first element under `node` (itself included) that `test` accepts. */
function find(node: Element | Root, test: (e: Element) => boolean): Element | undefined {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (test(child)) return child;
    const deeper = find(child, test);
    if (deeper) return deeper;
  }
  return undefined;
}

/** Links made text (a card is one link: links inside it would nest). */
function unlinked(nodes: ElementContent[]): ElementContent[] {
  return nodes.map((n) => (n.type === 'element' ? (n.tagName === 'a' ? el('span', {}, unlinked(n.children)) : { ...n, children: unlinked(n.children) }) : n));
}

function fileName(href: string): string {
  const last = href.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? href;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** A block-wide link card: an icon, a title, what it is (`kind`). */
function linkCard(href: string, title: string, kind: string, icon: ElementContent, extra: Element['properties'] = {}): Element {
  return el('a', { className: ['link-card'], href, ...extra }, [icon, el('strong', {}, [text(title)]), el('span', { className: ['card-kind'] }, [text(kind)])]);
}
const glyph = (value: string) => el('span', { ariaHidden: 'true' }, [text(value)]);

/** Font Awesome's names GitBook writes (`<i class="fa-github">`), as characters any font has. */
const iconGlyphs: Record<string, string> = {
  check: '✓', 'circle-check': '✓', xmark: '✕', 'circle-xmark': '✕', info: 'ℹ', 'circle-info': 'ℹ', warning: '⚠', 'triangle-exclamation': '⚠',
  'arrow-right': '→', 'arrow-left': '←', 'arrow-up': '↑', 'arrow-down': '↓', star: '★', heart: '♥', book: '📖', 'book-open': '📖',
  rocket: '🚀', gear: '⚙', gears: '⚙', lock: '🔒', key: '🔑', link: '🔗', bolt: '⚡', lightbulb: '💡', code: '⌨', terminal: '⌨',
  github: '', gitlab: '', user: '👤', users: '👥', globe: '🌐', envelope: '✉', file: '📄', folder: '📁', search: '🔍', magnifying: '🔍',
};

export class BlockBuilder {
  private tabGroups = 0;
  constructor(private readonly context: BlockContext) {}

  /** Rebuilds `root` in place. */
  run(root: Root): void {
    this.children(root);
  }

  private children(parent: Parent): void {
    const out: Child[] = [];
    for (const child of parent.children) {
      if (child.type !== 'element') {
        out.push(child);
        continue;
      }
      const replaced = this.element(child);
      out.push(...replaced);
    }
    parent.children = out as Parent['children'];
  }

  /** The element as the reader sees it (its children rebuilt first, but for code and math, which are text). */
  private element(node: Element): Child[] {
    if (node.tagName === 'code' && classes(node).includes('language-math')) return [mathHtml(textOf(node), false) as unknown as Child];
    if (node.tagName === 'pre') return [this.code(node)];
    if (hasClass(node, 'gb-code')) {
      const pre = elements(node).find((c) => c.tagName === 'pre');
      if (!pre) return node.children;
      return [this.code(pre, { title: prop(node, 'dataTitle'), lineNumbers: prop(node, 'dataLineNumbers') === 'true', wrap: prop(node, 'dataOverflow') === 'wrap' })];
    }
    const cls = classes(node);
    // Containers first: their items are placeholders read here, their items' blocks rebuilt.
    if (node.tagName === 'div' && cls.some((c) => ['gb-tabs', 'gb-stepper', 'gb-columns', 'gb-updates'].includes(c))) {
      const items = elements(node).filter((c) => classes(c).some((k) => k.startsWith('gb-')));
      for (const item of items) this.children(item);
      const tabs = items.filter((c) => classes(c).includes('gb-tab'));
      if (cls.includes('gb-tabs')) return tabs.length > 0 ? [this.tabs(tabs)] : node.children;
      if (cls.includes('gb-stepper')) return [el('ol', { className: ['stepper'] }, items.map((step) => el('li', { className: ['step'] }, step.children)))];
      if (cls.includes('gb-columns')) return [el('div', { className: ['columns'] }, items.map((column) => this.column(column)))];
      return [el('div', { className: ['updates'] }, items.map((update) => this.update(update)))];
    }
    this.children(node);
    if (node.properties.id !== undefined) node.properties.id = String(node.properties.id).replace(/^(user-content-)+/, 'user-content-');
    if (node.tagName === 'div') {
      if (cls.includes('gb-content-ref')) return [this.contentRef(node)];
      if (cls.includes('gb-file')) return this.file(node);
      if (cls.includes('gb-embed')) return this.embed(node);
      if (prop(node, 'dataTag') === 'hint') {
        const style = ['info', 'warning', 'danger', 'success'].find((s) => s === prop(node, 'dataStyle')) ?? 'info';
        return [el('aside', { className: ['hint', `hint-${style}`], role: 'note' }, node.children)];
      }
      // Tab and step placeholders outside their container, or a column alone: their blocks.
      if (cls.some((c) => c.startsWith('gb-'))) return node.children;
    }
    if (node.tagName === 'table' && prop(node, 'dataView') === 'cards') return [this.cards(node)];
    // The footnotes' heading is for screen readers only: no anchor to focus in it.
    if (node.tagName === 'h2' && cls.includes('sr-only')) node.children = node.children.filter((c) => !(c.type === 'element' && classes(c).includes('anchor')));
    if (node.tagName === 'details') node.properties = { ...node.properties, className: ['expandable'] };
    if (node.tagName === 'figure') return [this.figure(node)];
    // A task's box says its state (the task's text follows it).
    if (node.tagName === 'input' && node.properties.type === 'checkbox') node.properties = { ...node.properties, ariaLabel: node.properties.checked ? 'Done' : 'To do' };
    if (node.tagName === 'img' && node.properties.alt === undefined) node.properties = { ...node.properties, alt: '' };
    if (node.tagName === 'a' && cls.includes('button')) return this.button(node, cls.includes('secondary') ? 'button-secondary' : 'button-primary');
    if (node.tagName === 'i' && cls.length > 0) return [this.icon(cls[0].slice(3))];
    if (cls.includes('mention') && (node.tagName === 'a' || node.tagName === 'span')) return [this.mention(node)];
    // A footnote reference (an annotation): named as a note, its <sup> the place its popover opens from.
    if (node.tagName === 'sup' && elements(node).some((c) => c.tagName === 'a' && c.properties.dataFootnoteRef !== undefined)) {
      for (const ref of elements(node)) if (ref.tagName === 'a') ref.properties = { ...ref.properties, ariaLabel: `Note ${textOf(ref)}` };
      node.properties = { ...node.properties, className: ['footnote-ref'] };
    }
    return [node];
  }

  /**
   * A button: a link with its icon before its label; an action button (no link) a <button> the client
   * script makes open the search with its query (hidden with scripts off, as it could do nothing).
   */
  private button(node: Element, style: string): Child[] {
    const icon = prop(node, 'dataIcon');
    const children = icon ? [el('span', { className: ['icon'], ariaHidden: 'true' }, [text(iconGlyphs[icon] || '◆')]), ...node.children] : node.children;
    const action = prop(node, 'dataAction');
    if (node.properties.href === undefined && (action === 'search' || action === 'ask')) {
      return [el('button', { type: 'button', className: ['button', style], dataAction: 'search', ...(prop(node, 'dataQuery') && { dataQuery: prop(node, 'dataQuery') }) }, children)];
    }
    // A button with nowhere to go (an option to select: the site has no such control) is its label.
    if (node.properties.href === undefined) return node.children;
    return [el('a', { href: node.properties.href, className: ['button', style] }, children)];
  }

  /** A mention: a chip with what it names (page, space, file: a link to it; a user: their name), its kind a glyph. */
  private mention(node: Element): Element {
    const kind = prop(node, 'dataMention') ?? 'page';
    const icon = glyph(({ user: '@', space: '📚', file: '📎' } as Record<string, string>)[kind] ?? '📄');
    icon.properties.className = ['mention-kind'];
    const name = el('span', {}, node.children);
    if (node.tagName === 'a') return el('a', { href: node.properties.href, className: ['mention', `mention-${kind}`] }, [icon, name]);
    return el('span', { className: ['mention', `mention-${kind}`] }, [icon, name]);
  }

  private code(pre: Element, options: { title?: string; lineNumbers?: boolean; wrap?: boolean } = {}): Element {
    const code = elements(pre).find((c) => c.tagName === 'code');
    if (!code) return pre;
    const language = classes(code).find((c) => c.startsWith('language-'))?.slice('language-'.length);
    if (language === 'math') return el('div', { className: ['math-block'] }, [mathHtml(textOf(code), true) as unknown as ElementContent]);
    return codeBlock(this.context.highlighter, textOf(code).replace(/\n$/, ''), { ...options, ...(language && { language }) });
  }

  /** The ARIA tabs pattern: a tab list (shown with scripts on) and every panel under its title (print, no scripts). */
  private tabs(tabs: Element[]): Element {
    const group = ++this.tabGroups;
    const titles = tabs.map((tab, i) => prop(tab, 'dataTitle') || `Tab ${i + 1}`);
    const list = el(
      'div',
      { className: ['tablist'], role: 'tablist', ariaLabel: titles.join(', ') },
      titles.map((title, i) =>
        el('button', { type: 'button', role: 'tab', id: `tab-${group}-${i + 1}`, ariaControls: [`panel-${group}-${i + 1}`], ariaSelected: i === 0 ? 'true' : 'false', tabIndex: i === 0 ? 0 : -1 }, [text(title)]),
      ),
    );
    const panels = tabs.map((tab, i) =>
      el('section', { className: ['tab-panel'], role: 'tabpanel', id: `panel-${group}-${i + 1}`, ariaLabelledBy: [`tab-${group}-${i + 1}`], tabIndex: 0 }, [
        el('p', { className: ['tab-title'] }, [text(titles[i])]),
        ...tab.children,
      ]),
    );
    return el('div', { className: ['tabs'] }, [list, ...panels]);
  }

  private column(node: Element): Element {
    const width = Number.parseFloat(prop(node, 'dataWidth') ?? '');
    const style = Number.isFinite(width) && width > 0 && width <= 100 ? `flex:${width} 1 0` : undefined;
    return el('div', { className: ['column'], ...(style && { style }) }, node.children);
  }

  private update(node: Element): Element {
    const date = prop(node, 'dataDate');
    const heading = date ? [el('p', { className: ['update-date'] }, [/^\d{4}-\d{2}-\d{2}/.test(date) ? el('time', { dateTime: date.slice(0, 10) }, [text(date)]) : text(date)])] : [];
    return el('section', { className: ['update'] }, [...heading, ...node.children]);
  }

  private contentRef(node: Element): Element {
    const link = find(node, (e) => e.tagName === 'a' && typeof e.properties.href === 'string');
    if (!link) return el('div', {}, node.children);
    return linkCard(String(link.properties.href), textOf(link) || String(link.properties.href), 'Page', glyph('📄'));
  }

  private file(node: Element): Child[] {
    const [link, ...caption] = node.children;
    if (!link || link.type !== 'element' || link.tagName !== 'a' || typeof link.properties.href !== 'string') return caption;
    const href = link.properties.href;
    return [linkCard(href, fileName(href), 'Download', glyph('📎'), { download: '' }), ...caption];
  }

  /** An embed: the provider's player in a sandboxed frame when it is an allowed one, and a card of the link. */
  private embed(node: Element): Child[] {
    const [link, ...caption] = node.children;
    if (!link || link.type !== 'element' || link.tagName !== 'a' || typeof link.properties.href !== 'string') return caption;
    const url = link.properties.href;
    const card = this.context.embed(url);
    const icon = card?.icon && /^https?:\/\//i.test(card.icon) ? el('img', { src: card.icon, alt: '', loading: 'lazy' }) : glyph('🔗');
    let host = url;
    try {
      host = new URL(url).hostname;
    } catch {}
    const frame = card?.frame && allowedIframeSource(card.frame.src)
      ? [el('iframe', { src: card.frame.src, title: card.frame.title || card.title, loading: 'lazy', allowFullScreen: true, sandbox: ['allow-scripts', 'allow-same-origin', 'allow-popups', 'allow-presentation'], referrerPolicy: 'strict-origin-when-cross-origin' })]
      : [];
    return [el('div', { className: ['embed'] }, [...frame, linkCard(url, card?.title || url, card?.site || host, icon)]), ...caption];
  }

  /** A table in cards view: a card per row, its cover image, its visible cells, the whole card a link to its target. */
  private cards(table: Element): Element {
    const headRow = find(table, (e) => e.tagName === 'tr');
    const head = headRow ? elements(headRow) : [];
    const role = (i: number) => {
      const th = head[i];
      if (!th || th.tagName !== 'th') return 'text';
      if (th.properties.dataCardTarget !== undefined) return 'target';
      if (th.properties.dataCardCover !== undefined) return 'cover';
      if (th.properties.dataHidden !== undefined) return 'hidden';
      return 'text';
    };
    const body = find(table, (e) => e.tagName === 'tbody');
    const rows = (body ? elements(body) : []).filter((r) => r.tagName === 'tr');
    const cards = rows.map((row) => {
      const cells = elements(row).filter((c) => c.tagName === 'td');
      let href: string | undefined;
      let cover: Element | undefined;
      const content: ElementContent[] = [];
      cells.forEach((cell, i) => {
        const kind = role(i);
        if (kind === 'target') href = find(cell, (e) => e.tagName === 'a' && typeof e.properties.href === 'string')?.properties.href as string | undefined;
        else if (kind === 'cover') {
          const img = find(cell, (e) => e.tagName === 'img');
          const fileLink = find(cell, (e) => e.tagName === 'a' && typeof e.properties.href === 'string');
          if (img) cover = el('img', { src: img.properties.src, alt: img.properties.alt ?? '', loading: 'lazy' });
          else if (fileLink) cover = el('img', { src: fileLink.properties.href, alt: '', loading: 'lazy' });
        } else if (kind === 'text' && textOf(cell).trim() !== '') content.push(el('div', {}, cell.children));
      });
      const inner = [...(cover ? [cover] : []), el('div', { className: ['card-body'] }, href ? unlinked(content) : content)];
      return href ? el('a', { className: ['card'], href }, inner) : el('div', { className: ['card'] }, inner);
    });
    return el('div', { className: ['cards'] }, cards);
  }

  /** A figure's image opens larger (site-script.ts; with scripts off, the link opens the image itself). */
  private figure(node: Element): Element {
    const wrap = (nodes: ElementContent[]): ElementContent[] =>
      nodes.map((n) => {
        if (n.type !== 'element') return n;
        if (n.tagName === 'img' && typeof n.properties.src === 'string') return el('a', { className: ['zoom'], href: n.properties.src, ariaLabel: `Enlarge image${n.properties.alt ? `: ${String(n.properties.alt)}` : ''}` }, [n]);
        if (n.tagName === 'picture') {
          const img = find(n, (e) => e.tagName === 'img');
          return img && typeof img.properties.src === 'string' ? el('a', { className: ['zoom'], href: img.properties.src, ariaLabel: `Enlarge image${img.properties.alt ? `: ${String(img.properties.alt)}` : ''}` }, [n]) : n;
        }
        if (n.tagName === 'a') return n;
        // GitBook writes a caption as one paragraph: its text is the caption.
        if (n.tagName === 'figcaption') {
          const kids = n.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
          return kids.length === 1 && kids[0].type === 'element' && kids[0].tagName === 'p' ? { ...n, children: kids[0].children } : n;
        }
        return { ...n, children: wrap(n.children) };
      });
    return { ...node, properties: { ...node.properties, className: ['image'] }, children: wrap(node.children) };
  }

  private icon(name: string): Element {
    const label = name.replace(/-/g, ' ');
    const glyphText = iconGlyphs[name] || '◆';
    return el('span', { className: ['icon'], role: 'img', ariaLabel: label }, [text(glyphText)]);
  }
}
