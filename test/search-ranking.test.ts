// The search function's shortcuts give what its definition gives. The order of results when a query
// matches more pages than are ranked by their full text is by title rank, then page id; a one-word query
// may take another path to it (migration 0022: the pages with the word in their title, then the others in
// id order along the primary key), so both paths are checked against that definition, through pages of
// results that take either path. A quoted phrase is looked up by the word pairs it needs (0020-0022): every
// page holding the phrase holds them. The database function is called directly, with a ranking threshold
// of 2 pages in place of the server's 200.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Account } from './support/harness.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

async function spaceWith(admin: Account, pages: [string, string][]) {
  const space = (await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Docs' })).body;
  const cr = (await admin.api.post(`/spaces/${space.id}/change-requests`)).body;
  const changes = pages.map(([title, markdown]) => ({ operation: 'insert_page', title, document: { markdown } }));
  expect((await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { changes })).status).toBe(200);
  expect((await admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
  // The first search brings the index up to date.
  expect((await admin.api.get(`/spaces/${space.id}/search`, { query: 'anything' })).status).toBe(200);
  return space.id as string;
}

const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await h.current.db.execute(query)) as unknown as { rows: T[] }).rows;

/** One page of results of the search function: the page ids in order, and the total. */
async function resultPage(spaceId: string, query: string, offset: number, limit: number, rankFullTextUpTo = 2) {
  const rows = await rowsOf<{ total: string | number; page_id: string | null }>(
    sql`SELECT total, page_id FROM search_content(${query}, ${spaceId}, NULL, ${offset}::integer, ${limit}::integer, ${rankFullTextUpTo}::integer, NULL)`,
  );
  return { ids: [...new Set(rows.flatMap((r) => (r.page_id === null ? [] : [r.page_id])))], total: Number(rows[0].total) };
}

/** The order by definition: every matching page by the rank of its title (or of its whole text), then id. */
async function expectedOrder(spaceId: string, query: string, ranked: 'title' | 'text' = 'title') {
  const rows = await rowsOf<{ page_id: string }>(sql`
    SELECT page_id FROM search_pages
    WHERE space_id = ${spaceId} AND tsv @@ websearch_to_tsquery('english', ${query})
    ORDER BY ts_rank(${sql.raw(ranked === 'title' ? 'title_tsv' : 'tsv')}, websearch_to_tsquery('english', ${query})) DESC, page_id`);
  return rows.map((r) => r.page_id);
}

describe('search shortcuts', () => {
  it('get /spaces/{spaceId}/search orders a common word by title rank, then page id, on every page of results', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceWith(admin, [
      ['Walrus walrus', 'A walrus.'],
      ['Zoo', 'The walrus swims.'],
      ['Walruses of the north', 'Cold.'],
      ['Ice', 'Walrus colonies.'],
      ['Feeding', 'What a walrus eats.'],
      ['Seals', 'Not the same animal.'],
      ['Tusks', 'Each walrus has two.'],
      ['Walrus care', 'Keepers and the walrus.'],
      ['Habitat', 'Where walruses live.'],
      ['Travel', 'Walrus migrations.'],
      ['Other', 'Penguins only.'],
      ['Sleep', 'A walrus sleeps in water.'],
    ]);
    const expected = await expectedOrder(spaceId, 'walrus');
    expect(expected).toHaveLength(10);
    // Pages of 3: the first ones take the one-word path ((offset + 3) × 12 pages < 10²), the last the general one.
    const seen: string[] = [];
    for (let offset = 0; offset < 12; offset += 3) {
      const page = await resultPage(spaceId, 'walrus', offset, 3);
      expect(page.total).toBe(10);
      seen.push(...page.ids);
    }
    expect(seen).toEqual(expected);
    // The general path alone (a query of more than one word) follows the same definition.
    const general = await resultPage(spaceId, 'walrus -penguin', 0, 20);
    expect(general.ids).toEqual(await expectedOrder(spaceId, 'walrus -penguin'));
    expect(general.ids).toHaveLength(10);
    // Under the threshold, both paths rank by the whole text.
    const byText = await expectedOrder(spaceId, 'walrus', 'text');
    expect(byText).not.toEqual(expected);
    expect((await resultPage(spaceId, 'walrus', 0, 20, 20)).ids).toEqual(byText);
    expect((await resultPage(spaceId, 'walrus -penguin', 0, 20, 20)).ids).toEqual(await expectedOrder(spaceId, 'walrus -penguin', 'text'));
    // Past the end, and a word on no page: the total alone.
    expect(await resultPage(spaceId, 'walrus', 30, 3)).toEqual({ ids: [], total: 10 });
    expect(await resultPage(spaceId, 'narwhal', 0, 3)).toEqual({ ids: [], total: 0 });
    expect(await resultPage(spaceId, 'walrus -walrus', 0, 3)).toEqual({ ids: [], total: 0 });
    expect(await resultPage(spaceId, 'walrus -penguin', 30, 3)).toEqual({ ids: [], total: 10 });
  });

  it('get /spaces/{spaceId}/search finds a phrase on the same pages as the phrase check alone', async () => {
    const admin = await h.current.newAdmin();
    const spaceId = await spaceWith(admin, [
      ['One', 'The server response was slow.'],
      ['Two', 'A response from the server.'],
      ['Three', 'Server and response, apart.'],
      ['Four', 'Server responses time out; the server response time is long.'],
      ['Five', 'State of the art servers.'],
    ]);
    for (const query of ['"server response"', '"server response time"', '"server response" or slow', '"state of the art"', '"response server"', '-"server response" server', '"walrus tusk"']) {
      const all = await resultPage(spaceId, query, 0, 20);
      const expected = await rowsOf<{ page_id: string }>(
        sql`SELECT page_id FROM search_pages WHERE space_id = ${spaceId} AND tsv @@ websearch_to_tsquery('english', ${query})`,
      );
      expect([...all.ids].sort(), query).toEqual(expected.map((r) => r.page_id).sort());
      expect(all.total, query).toBe(expected.length);
    }
    // Not vacuous: the phrase is on One and Four (Two has the words the other way round, Three apart).
    expect((await resultPage(spaceId, '"server response"', 0, 20)).total).toBe(2);
  });

  it('a text holding a query holds the word pairs the query needs, for any text and query', async () => {
    const word = fc.constantFrom('server', 'response', 'responses', 'time', 'the', 'of', 'a', 'state', 'art', 'example-cli', 'slow', "o'neil");
    const text = fc.array(word, { minLength: 0, maxLength: 12 }).map((w) => w.join(' '));
    const query = fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 4 }), fc.constantFrom('', ' or slow', ' time', ' -art'), fc.boolean())
      .map(([phrase, rest, negated]) => `${negated ? '-' : ''}"${phrase.join(' ')}"${rest}`);
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 6 }), query, async (texts, q) => {
        const [check] = await rowsOf<{ broken: number }>(sql`
          SELECT count(*)::integer AS broken
          FROM jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) AS t(body),
               LATERAL (SELECT to_tsvector('english', t.body) AS v, websearch_to_tsquery('english', ${q}) AS q) AS x
          WHERE x.v @@ x.q AND NOT search_word_pairs(x.v) @> coalesce(search_query_pairs(x.q), '{}')`);
        expect(check.broken).toBe(0);
      }),
      { numRuns: 150 },
    );
  });
});
