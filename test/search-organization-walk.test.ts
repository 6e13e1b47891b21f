// Above RANK_FULL_TEXT_UP_TO matches the organization search walks its order from the start and stops
// once the answer is full (migration 0058; docs/decisions.md, "The organization search stops early"). The
// order is the one the ranking of every match gives above that bound (search_organization_ranked: titles
// first, then ids), so the walk's answers, followed to the end, are checked against that function's whole
// order, for queries of one, two and three words, with `limit` of 1, 2 and the default.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ORGANIZATION_SEARCH_PAGES, RANK_FULL_TEXT_UP_TO } from '../server/search/search.js';
import { useHarness } from './support/harness.js';
import { allAnswers, spaceWith } from './support/organization-search.js';

const h = useHarness();


/** Every match of `query` in the organization's spaces, in the order of the ranking of every match. */
async function rankedOrder(organizationId: string, query: string) {
  const result = (await h.current.db.execute(sql`
    SELECT r.space_id, r.page_id, r.position FROM search_organization_ranked(${query}, ARRAY(SELECT visible_space_ids(${organizationId}, NULL)), 0, 100000, 100000, ${RANK_FULL_TEXT_UP_TO})
    AS r WHERE r.page_id IS NOT NULL ORDER BY r.position`)) as unknown as { rows: { space_id: string; page_id: string }[] };
  return result.rows.map((row) => `${row.space_id}/${row.page_id}`);
}

describe('organization search, a common query', () => {
  it('walks the order of the ranking of every match and stops early, reaching every match once', async () => {
    const admin = await h.current.newAdmin();
    // Titles holding every word, some of them, or none; the words on most pages.
    const titles = ['Deploy the token service', 'Token service', 'Deploy', 'Step', 'Service tokens deploy guide', 'Overview'];
    const body = (i: number) => (i % 9 === 0 ? 'Deploy alone here.' : i % 11 === 0 ? 'A token and a service.' : `We deploy the token service, step ${i}.`);
    const big = (await spaceWith(admin, 'Big', Array.from({ length: 160 }, (_, i): [string, string] => [`${titles[i % titles.length]} ${i}`, body(i)]))).spaceId;
    await spaceWith(admin, 'Plain', Array.from({ length: 70 }, (_, i): [string, string] => [`Page ${i}`, body(i + 1)]));
    // Both words of "deploy token", on different pages only: counted, never matched.
    await spaceWith(admin, 'Apart', [['One', 'Deploy here.'], ['Two', 'A token there.']]);
    const titled = (await spaceWith(admin, 'Titled', [['How to deploy a token service', 'Deploy the token service.'], ['Other', 'Nothing.']])).spaceId;

    for (const [query, count] of [
      ['deploy', 4],
      ['deploy token', 4],
      ['deploy token service', 3],
    ] as const) {
      const order = await rankedOrder(admin.organizationId, query);
      // The walk is taken: more matches than the full-text ranking takes.
      expect(order.length, query).toBeGreaterThan(RANK_FULL_TEXT_UP_TO);
      expect(order[0], query).toMatch(new RegExp(`^(${big}|${titled})/`));
      for (const limit of [undefined, 1, 2]) {
        const answers = await allAnswers(admin, query, limit, 399);
        const walked = answers.flatMap((a) => a.items.flatMap((s) => s.pages.map((p) => `${s.id}/${p.id}`)));
        expect(walked, `${query}, limit ${limit}`).toEqual(order);
        expect(answers.flatMap((a) => a.items.flatMap((s) => s.pages.map((p) => p.rank)))).toEqual(order.map((_, i) => i + 1));
        for (const answer of answers) {
          // One word: the matching spaces; several: the spaces holding every word (`apart` holds both of "deploy token").
          expect(answer.count, query).toBe(count);
          expect(answer.items.flatMap((s) => s.pages).length).toBeLessThanOrEqual(ORGANIZATION_SEARCH_PAGES);
          expect(answer.items.length).toBeLessThanOrEqual(limit ?? 100);
          expect(new Set(answer.items.map((s) => s.id)).size).toBe(answer.items.length);
        }
        // A full answer is followed by another only when a match remains.
        expect(answers.at(-1)!.next).toBeUndefined();
      }
    }
  });
});
