// Full-text search of content with PostgreSQL's own text search (websearch_to_tsquery, ts_rank,
// ts_headline), the same on PGlite and on PostgreSQL. Pages are cut into sections at their headings;
// the sections of the searched revisions go to the database in one query, which says which match, how
// well, and with what excerpt. Nothing is indexed ahead of time: each search reads the current
// revisions it covers (fine for the spaces of one organization; a stored tsvector index is the next step).
import { sql } from 'drizzle-orm';
import type { components } from '../../generated/types.js';
import { slugify } from '../content/apply-changes.js';
import { pagePath, type RevisionContent, type StoredPage } from '../content/revision-content.js';
import type { Ctx } from '../context.js';
import { queryRows } from '../db/client.js';

type SearchSpaceResult = components['schemas']['SearchSpaceResult'];

interface Section {
  spaceId: string;
  page: StoredPage;
  id: string;
  title: string;
  body: string;
}

/** The sections of a page: the text before the first heading (under the page title), then one per heading. */
function sectionsOf(spaceId: string, page: StoredPage): Section[] {
  const sections: Section[] = [{ spaceId, page, id: '', title: page.title, body: '' }];
  for (const line of page.markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) sections.push({ spaceId, page, id: slugify(heading[1]), title: heading[1], body: '' });
    else sections[sections.length - 1].body += `${line}\n`;
  }
  return sections.filter((s, i) => i === 0 || s.body.trim() !== '' || s.title !== '');
}

export interface SearchedSpace {
  spaceId: string;
  content: RevisionContent;
}

/** The pages of the given contents matching `query`, best first, each with its matching sections. */
export async function searchPages(ctx: Ctx, spaces: SearchedSpace[], query: string): Promise<{ spaceId: string; result: SearchSpaceResult }[]> {
  const sections = spaces.flatMap((s) => s.content.pages.flatMap((p) => sectionsOf(s.spaceId, p)));
  if (sections.length === 0) return [];
  const input = JSON.stringify(sections.map((s, i) => ({ i, title: s.id === '' ? s.title : `${s.page.title} ${s.title}`, body: s.body })));
  const rows = await queryRows<{ i: number; rank: number; headline: string }>(
    ctx.db,
    sql`SELECT s.i, ts_rank(setweight(to_tsvector('english', s.title), 'A') || to_tsvector('english', s.body), q) AS rank,
               ts_headline('english', s.body, q, 'MaxFragments=1, MaxWords=30, MinWords=10') AS headline
        FROM jsonb_to_recordset(${input}::jsonb) AS s(i int, title text, body text), websearch_to_tsquery('english', ${query}) AS q
        WHERE (setweight(to_tsvector('english', s.title), 'A') || to_tsvector('english', s.body)) @@ q`,
  );
  const byPage = new Map<string, { spaceId: string; page: StoredPage; rank: number; sections: { section: Section; headline: string }[] }>();
  for (const row of rows) {
    const section = sections[Number(row.i)];
    const key = `${section.spaceId}/${section.page.id}`;
    const entry = byPage.get(key) ?? { spaceId: section.spaceId, page: section.page, rank: 0, sections: [] };
    entry.rank = Math.max(entry.rank, Number(row.rank));
    entry.sections.push({ section, headline: row.headline });
    byPage.set(key, entry);
  }
  const contents = new Map(spaces.map((s) => [s.spaceId, new Map(s.content.pages.map((p) => [p.id, p]))]));
  return [...byPage.values()]
    .sort((a, b) => b.rank - a.rank || (a.page.id < b.page.id ? -1 : 1))
    .map((entry) => {
      const pages = contents.get(entry.spaceId)!;
      const path = pagePath(pages, entry.page);
      const ancestors: { title: string }[] = [];
      for (let p = entry.page.parent ? pages.get(entry.page.parent) : undefined; p; p = p.parent ? pages.get(p.parent) : undefined) ancestors.unshift({ title: p.title });
      const app = (suffix: string) => ctx.urls.app(`/s/${entry.spaceId}/${path}${suffix}`);
      return {
        spaceId: entry.spaceId,
        result: {
          id: entry.page.id,
          title: entry.page.title,
          path,
          sections: entry.sections
            .filter((s) => s.section.id !== '' || s.section.body.trim() !== '')
            .map(({ section, headline }) => ({
              id: section.id,
              title: section.title,
              path: section.id === '' ? path : `${path}#${section.id}`,
              body: headline,
              urls: { app: app(section.id === '' ? '' : `#${section.id}`) },
            })),
          ancestors,
          urls: { app: app('') },
        },
      };
    });
}
