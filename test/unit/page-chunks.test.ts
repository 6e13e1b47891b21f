// A revision's page list in chunks (server/content/page-chunks.ts): chunks known to be stored are reused
// whole, and the cut is the same as a list of fresh objects gets, whatever was inserted, deleted or edited.
import { describe, expect, it } from 'vitest';
import { registerChunks, storableChunks } from '../../server/content/page-chunks.js';
import type { StoredPage } from '../../server/content/revision-content.js';

const page = (id: string, title = id): StoredPage =>
  ({ id, parent: null, position: 'a0', type: 'document', title, slug: id, hidden: false, noIndex: false, noRobotsIndex: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }) as StoredPage;
const hashesOfFresh = (pages: StoredPage[]) => storableChunks(pages.map((p) => ({ ...p }))).chunks.map((c) => c.hash);

describe('storableChunks', () => {
  it('cuts an edited list as it cuts the same list of new objects, writing only the chunks that changed', () => {
    const pages = Array.from({ length: 2000 }, (_, i) => page(`pag_${i.toString(36)}_chunks`));
    const first = storableChunks(pages);
    expect(first.chunks.length).toBeGreaterThan(10);
    expect(first.chunks.flatMap((c) => c.pages)).toEqual(pages);
    registerChunks(first.chunks);

    const edits: [string, StoredPage[]][] = [
      ['one page edited', pages.map((p, i) => (i === 1000 ? page(p.id, 'Edited') : p))],
      ['one page inserted', [...pages.slice(0, 700), page('pag_new_chunks'), ...pages.slice(700)]],
      ['one page deleted', pages.filter((_, i) => i !== 1500)],
      ['pages appended after the last chunk', [...pages, page('pag_end1_chunks'), page('pag_end2_chunks')]],
      ['the last page deleted', pages.slice(0, -1)],
    ];
    for (const [what, edited] of edits) {
      const again = storableChunks(edited);
      expect(again.chunks.map((c) => c.hash), what).toEqual(hashesOfFresh(edited));
      expect(again.chunks.flatMap((c) => c.pages), what).toEqual(edited);
      // A change touches one chunk, or two where it moves a boundary.
      expect(again.newChunks.length, what).toBeLessThanOrEqual(2);
      expect(again.newChunks.length, what).toBeGreaterThanOrEqual(1);
    }
    expect(storableChunks(pages).newChunks).toEqual([]);
  });
});
