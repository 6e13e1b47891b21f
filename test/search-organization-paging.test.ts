// The organization search answers a bounded page (docs/decisions.md, "The organization search answers a
// bounded page"): at most `limit` spaces and ORGANIZATION_SEARCH_PAGES pages, and its `next` cursor reaches
// every matching page once, a space with more matches than the bound included.
import { describe, expect, it } from 'vitest';
import { ORGANIZATION_SEARCH_PAGES } from '../server/search/search.js';
import { useHarness } from './support/harness.js';
import { allAnswers, spaceWith, type SearchAnswer } from './support/organization-search.js';

const h = useHarness();


/** The (space, page) pairs of the answers, in order, with their ranks. */
const pairsOf = (answers: SearchAnswer[]) => answers.flatMap((a) => a.items.flatMap((s) => s.pages.map((p) => ({ space: s.id, page: p.id, rank: p.rank }))));

describe('organization search paging', () => {
  it('answers at most the bound of pages and `limit` spaces, and its cursor reaches every match once', async () => {
    const admin = await h.current.newAdmin();
    const big = await spaceWith(
      admin,
      'Big',
      Array.from({ length: ORGANIZATION_SEARCH_PAGES + 25 }, (_, i): [string, string] => [`Step ${i}`, i % 7 === 0 ? 'Deploy, then deploy again.' : `Deploy step ${i}.`]),
    );
    const small = await spaceWith(admin, 'Small', [['Deploy', 'How to deploy the service.'], ['Release', 'Deploy every week.'], ['Misc', 'nothing']]);
    const other = await spaceWith(admin, 'Other', [['Rollout', 'We deploy on Tuesdays.']]);
    const matches = new Set([...big.pages, small.pages[0], small.pages[1], other.pages[0]]);

    for (const limit of [undefined, 1]) {
      const answers = await allAnswers(admin, 'deploy', limit, 49);
      // Each answer: the bound of pages at most (the first one holds it exactly when it may hold every space:
      // more pages match; with one space, that space's matches up to the bound), `limit` spaces at most, each
      // space once, and `count` the number of matching spaces.
      const first = answers[0].items[0].id;
      const inFirst = first === big.spaceId ? big.pages.length : first === small.spaceId ? 2 : 1;
      expect(answers[0].items.flatMap((s) => s.pages)).toHaveLength(Math.min(ORGANIZATION_SEARCH_PAGES, limit === 1 ? inFirst : Infinity));
      for (const answer of answers) {
        expect(answer.count).toBe(3);
        expect(answer.items.flatMap((s) => s.pages).length).toBeLessThanOrEqual(ORGANIZATION_SEARCH_PAGES);
        expect(answer.items.length).toBeLessThanOrEqual(limit ?? 100);
        expect(new Set(answer.items.map((s) => s.id)).size).toBe(answer.items.length);
        for (const s of answer.items) expect(s.score).toBe(s.pages[0].score);
      }
      // Together: every matching page once, in its space, ranked 1, 2, 3… across the answers.
      const pairs = pairsOf(answers);
      expect(pairs.map((p) => p.rank)).toEqual(pairs.map((_, i) => i + 1));
      expect(new Set(pairs.map((p) => p.page)).size).toBe(pairs.length);
      expect(new Set(pairs.map((p) => p.page))).toEqual(matches);
      for (const p of pairs) expect(p.space).toBe(big.pages.includes(p.page) ? big.spaceId : small.pages.includes(p.page) ? small.spaceId : other.spaceId);
      // A space's pages are next to each other in the order: the spaces come one after the other.
      const runs = pairs.map((p) => p.space).filter((s, i, all) => i === 0 || all[i - 1] !== s);
      expect(new Set(runs).size).toBe(runs.length);
    }
  });
});
