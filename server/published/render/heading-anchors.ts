// The ids of a page's headings on the published site (a rehype plugin, run after sanitizing). A heading's
// anchor is the Document's (`meta.id`), which the page's Markdown carries as GitBook writes it, an empty
// link to itself at the end of the heading (`## Title <a href="#id" id="id"></a>`; render-markdown.ts
// writes it for every heading that has one). The sanitizer has prefixed that link's id (`user-content-`,
// against DOM clobbering); the link is taken out and its id given to the heading. A heading without one
// gets the Document's own rule (server/content/heading-ids.ts) from its text, so the site's anchors and
// the Document's agree. Takes the place of rehype-slug.
import type { Element, ElementContent, Root } from 'hast';
import { HeadingIds } from '../../content/heading-ids.js';
import { textOf } from './blocks.js';

const HEADING = /^h[1-6]$/;
const CLOBBER_PREFIX = 'user-content-';

function headingsOf(node: Root | Element, out: Element[] = []): Element[] {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (HEADING.test(child.tagName)) out.push(child);
    else headingsOf(child, out);
  }
  return out;
}

/** The id of a heading's trailing custom anchor (`<a href="#x" id="x"></a>`), taken out of the heading. */
function takeCustomAnchor(heading: Element): string | undefined {
  const children = heading.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const last = children.at(-1);
  if (last?.type !== 'element' || last.tagName !== 'a' || textOf(last) !== '') return undefined;
  const id = typeof last.properties.id === 'string' && last.properties.id.startsWith(CLOBBER_PREFIX) ? last.properties.id.slice(CLOBBER_PREFIX.length) : undefined;
  if (!id || last.properties.href !== `#${id}`) return undefined;
  const at = heading.children.indexOf(last);
  const before: ElementContent[] = heading.children.slice(0, at);
  const text = before.at(-1);
  if (text?.type === 'text') before[before.length - 1] = { ...text, value: text.value.replace(/\s+$/, '') };
  heading.children = before;
  return id;
}

export default function rehypeHeadingAnchors() {
  return (tree: Root) => {
    const headings = headingsOf(tree);
    const explicit: string[] = [];
    for (const h of headings) {
      const custom = takeCustomAnchor(h);
      if (custom !== undefined) h.properties.id = custom;
      // An id set before (the footnotes' label) is kept, as rehype-slug kept it.
      if (typeof h.properties.id === 'string' && h.properties.id !== '') explicit.push(h.properties.id);
    }
    const ids = new HeadingIds(explicit);
    for (const h of headings) if (typeof h.properties.id !== 'string' || h.properties.id === '') h.properties.id = ids.next(textOf(h));
  };
}
