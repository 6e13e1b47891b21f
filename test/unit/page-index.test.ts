// A copy of a cached page list finds its pages by id through the cached list's positions
// (server/content/page-index.ts): whatever the copy's owner did to it since (pages replaced by copies,
// removed, added, reordered), every look-up answers what a walk of the copy would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyPageList, pagesById, positionOf } from '../../server/content/page-index.js';
import type { StoredPage } from '../../server/content/revision-content.js';

const page = (id: string): StoredPage => ({
  id,
  parent: null,
  position: 'a0',
  type: 'document',
  title: id,
  slug: id,
  hidden: false,
  noIndex: false,
  noRobotsIndex: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** One change a holder of a copy may make to it. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), id: fc.integer({ min: 0, max: 40 }).map((n) => `p${n}`) }),
  fc.record({ kind: fc.constant('reverse' as const) }),
);

function apply(pages: StoredPage[], change: { kind: string; at?: number; id?: string }) {
  const at = pages.length === 0 ? 0 : (change.at ?? 0) % pages.length;
  if (change.kind === 'replace' && pages.length > 0) pages[at] = { ...pages[at], title: 'replaced' };
  if (change.kind === 'remove' && pages.length > 0) pages.splice(at, 1);
  // A page list never holds one id twice.
  if (change.kind === 'insert' && !pages.some((p) => p.id === change.id)) pages.splice(at, 0, page(change.id!));
  if (change.kind === 'reverse') pages.reverse();
}

describe('page index', () => {
  it('finds each page of a copy as a walk of the copy does, after any changes to the copy', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 30 }), fc.array(edit, { maxLength: 8 }), (ids, edits) => {
        const cached = ids.map((n) => page(`p${n}`));
        // A first copy's look-up builds the cached list's positions; the second copy is then edited.
        expect(pagesById(copyPageList(cached)).get(cached[0]?.id ?? 'p0')).toBe(cached[0]);
        const copy = copyPageList(cached);
        for (const change of edits) apply(copy, change);
        const byId = pagesById(copy);
        for (let n = 0; n <= 40; n++) {
          const id = `p${n}`;
          expect(positionOf(copy, id)).toBe(copy.findIndex((p) => p.id === id));
          expect(byId.get(id)).toBe(copy.find((p) => p.id === id));
        }
      }),
    );
  });

  it('answers a list that is not a copy by walking it', () => {
    const pages = [page('a'), page('b')];
    expect(positionOf(pages, 'b')).toBe(1);
    expect(pagesById(pages).get('a')).toBe(pages[0]);
    expect(pagesById(pages).get('c')).toBeUndefined();
  });
});
