// Heading anchors: one rule for the Document's `meta.id` (markdown-document.ts gives it to the headings of
// Markdown) and for the published site's heading ids (render-markdown.ts), so a link to a section works on
// both. The slug of a heading's text is GitHub's (github-slugger, as rehype-slug made the site's ids
// before): lower case, spaces as `-`, punctuation dropped. A repeated slug takes `-1`, `-2`, … in page
// order, and an id the page gives explicitly (a custom anchor) is never given to another heading.
import { slug } from 'github-slugger';

/** The slug of a heading's text; `section` for a heading with nothing to slug (only punctuation or emoji). */
export function headingSlug(text: string): string {
  return slug(text) || 'section';
}

/**
 * Gives each heading of a page its anchor, in page order: `explicit` ids are kept as they are (and taken
 * from the start, so no heading before them takes one); the others get their text's slug, made unique with
 * GitHub's rule (`install`, `install-1`, `install-2`, …).
 */
export class HeadingIds {
  private readonly taken: Set<string>;
  private readonly counts = new Map<string, number>();

  constructor(explicit: Iterable<string> = []) {
    this.taken = new Set(explicit);
  }

  /** The anchor of the next heading without an explicit id. */
  next(text: string): string {
    const base = headingSlug(text);
    let id = base;
    while (this.taken.has(id)) {
      const n = (this.counts.get(base) ?? 0) + 1;
      this.counts.set(base, n);
      id = `${base}-${n}`;
    }
    this.taken.add(id);
    return id;
  }
}

/** A heading as the anchor rule sees it: its text, and its id when the page gives one explicitly. */
export interface HeadingOfPage {
  text: string;
  explicit?: string;
}

/** The anchors of a page's headings, in order (see HeadingIds). */
export function headingIdsOf(headings: HeadingOfPage[]): string[] {
  const ids = new HeadingIds(headings.flatMap((h) => (h.explicit === undefined ? [] : [h.explicit])));
  return headings.map((h) => h.explicit ?? ids.next(h.text));
}

/**
 * Which of a page's anchors (`ids[i]`, undefined when a heading has none) Markdown must write explicitly so
 * that reading it back gives the same ids: none when every id is what the rule gives its text; else those
 * that differ, and then any other whose rule-given id the written ones displace, until none moves.
 */
export function explicitHeadingIds(texts: string[], ids: (string | undefined)[]): boolean[] {
  const explicit = texts.map(() => false);
  for (;;) {
    const given = headingIdsOf(texts.map((text, i) => (explicit[i] ? { text, explicit: ids[i] } : { text })));
    let changed = false;
    for (let i = 0; i < texts.length; i++) {
      if (!explicit[i] && ids[i] !== undefined && given[i] !== ids[i]) {
        explicit[i] = true;
        changed = true;
      }
    }
    if (!changed) return explicit;
  }
}
