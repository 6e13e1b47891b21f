// GitBook's inline HTML in Markdown, read into the Document's inlines and marks: a colour mark
// (`<mark style="color:…;background-color:…">`), a button (`<a href="…" class="button primary" data-icon="…">`,
// or with `data-action` instead of a link) and an icon (`<i class="fa-github" style="color:$success;">`).
// Each opening tag is parsed by hast-util-from-html; markdown-document.ts pairs it with its closing tag.
import type { Element, RootContent as HastContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { DocumentTextColor, type DocumentInlineShape as Inline, type DocumentTextShape } from '../../contract/document.js';
import type { ContentRefValue } from './markdown-refs.js';

type Mark = DocumentTextShape['leaves'][number]['marks'][number];
const mark = (type: string, data?: Record<string, unknown>): Mark => ({ object: 'mark', type, ...(data && { data }) }) as Mark;
const isElement = (n: HastContent | undefined): n is Element => n?.type === 'element';

/** `<mark style="color:…;background-color:…">` as a colour mark (GitBook's Git Sync writes colours so). */
export function colorMark(html: string): Mark | undefined {
  const match = /^<mark\s+style="([^"]*)">$/i.exec(html);
  if (!match) return undefined;
  const style = Object.fromEntries(
    match[1]
      .split(';')
      .map((d) => d.split(':').map((s) => s.trim()))
      .filter((d) => d.length === 2 && d[0] !== ''),
  ) as Record<string, string>;
  return mark('color', { text: style.color ?? 'default', background: style['background-color'] ?? 'default' });
}

/**
 * GitBook's inline HTML for a button (`<a href="…" class="button primary" data-icon="rocket">`, or an action
 * button `<button type="button" class="button primary" data-action="ask">`) or an icon
 * (`<i class="fa-github" style="color:$success;">`): the opening tag read as an element, or undefined.
 */
export function gitbookInlineTag(html: string): { tag: 'a' | 'i' | 'button'; element: Element } | undefined {
  const tag = /^<(a|i|button)\s[^>]*\bclass\s*=\s*["']?(button|fa-)/i.exec(html)?.[1]?.toLowerCase() as 'a' | 'i' | 'button' | undefined;
  if (!tag) return undefined;
  const element = fromHtml(`${html}</${tag}>`, { fragment: true }).children.find(isElement);
  if (!element || element.tagName !== tag) return undefined;
  const className = Array.isArray(element.properties.className) ? element.properties.className.map(String) : [];
  if (tag === 'i' ? !className.some((c) => /^fa-[a-z0-9-]+$/.test(c)) : !className.includes('button')) return undefined;
  return { tag, element };
}

const propString = (e: Element, name: string): string | undefined => (typeof e.properties[name] === 'string' ? (e.properties[name] as string) : undefined);

/** A button inline: `<a href class="button primary|secondary" data-icon>`, or with `data-action` (search, ask, select) instead of a link. */
export function buttonInline(a: Element, label: string, read: (url: string) => ContentRefValue): Inline {
  const className = (a.properties.className as string[]).map(String);
  const kind = className.includes('secondary') ? 'secondary' : 'primary';
  const icon = propString(a, 'dataIcon');
  const action = propString(a, 'dataAction');
  const href = propString(a, 'href');
  let target: Record<string, unknown>;
  if ((action === 'search' || action === 'ask') && href === undefined) target = { action: { action, ...(propString(a, 'dataQuery') !== undefined && { query: propString(a, 'dataQuery') }) } };
  else if (action === 'select' && href === undefined && propString(a, 'dataSlug') !== undefined) target = { action: { action, slug: propString(a, 'dataSlug') } };
  else target = { ref: read(href ?? '') };
  return { object: 'inline', type: 'button', isVoid: true, data: { label, kind, ...(icon && { icon }), ...target } } as Inline;
}

/** An icon inline: `<i class="fa-name" style="color:…;">:name:</i>`. */
export function iconInline(i: Element): Inline {
  const name = (i.properties.className as string[]).map(String).find((c) => /^fa-[a-z0-9-]+$/.test(c))!.slice(3);
  const color = /(?:^|;)\s*color\s*:\s*([$\w-]+)/.exec(propString(i, 'style') ?? '')?.[1];
  return { object: 'inline', type: 'icon', isVoid: true, data: { icon: name, ...(color && iconColors.has(color) && { color }) } } as Inline;
}

/** GitBook's colour tokens (DocumentTextColor), the colours an icon may have. */
export const iconColors: ReadonlySet<string> = new Set(DocumentTextColor.options);

