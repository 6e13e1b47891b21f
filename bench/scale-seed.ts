// The workspace bench/scale.ts measures: one organization of `spaces` spaces of 100 pages each (in
// collections of 10), members, teams with grants on spaces and collections, comments and change requests.
// The bulk goes in as SQL batches (generate_series); the pages are written as the server writes them
// (Documents read from Markdown by setPageContent, revisions by insertRevisionSql: chunks and Documents in
// content_documents) and indexed for search by the server's own catch-up (catchUpSpace). Space 1 is the one
// read: the same 100 pages, 50 comments and 10 change requests at every size, so only the workspace grows.
import { keyAfter } from '../server/content/order-keys.js';
import { setPageContent } from '../server/content/page-content.js';
import type { RevisionContent, StoredPage } from '../server/content/revision-content.js';
import { insertRevisionSql } from '../server/content/revisions.store.js';
import { createOrganization, createUser, issueToken } from '../server/auth/bootstrap.js';
import type { Database } from '../server/db/client.js';
import { runSql, sqlText } from '../server/db/sql-text.js';
import { catchUpSpace } from '../server/search/search-index.js';
import { prng } from './support/prng.js';

export interface WorkspaceSize {
  spaces: number;
  members: number;
  teams: number;
  /** Per space. */
  comments: number;
  /** Per space. */
  changeRequests: number;
}

export const PAGES_PER_SPACE = 100;

/** The workspace at `scale` (1: 1,000 spaces, 100,000 pages, 10,000 members, 1,000 teams, 50,000 comments). */
export function sizeAt(scale: number): WorkspaceSize {
  return {
    spaces: Math.max(1, Math.round(1000 * scale)),
    members: Math.max(10, Math.round(10_000 * scale)),
    teams: Math.max(1, Math.round(1000 * scale)),
    comments: 50,
    changeRequests: 10,
  };
}

// Words of the pages: common ones (on most pages) and one per space (`word<n>`), for the searches.
const vocabulary = (
  'configure install deploy server client token access request response error page space user team member ' +
  'organization setting option value file folder project build release version update upgrade migrate ' +
  'database query index table column schema record field key secret password account login session cookie'
).split(' ');

function markdownOf(rand: () => number, space: number, page: number): string {
  const sentence = () => `${Array.from({ length: 10 + Math.floor(rand() * 8) }, () => vocabulary[Math.floor(rand() * vocabulary.length)]).join(' ')}.`;
  return [
    `${sentence()} ${sentence()} See part${space} and topic${page}.`,
    '## Setup',
    `${sentence()} ${sentence()} ${sentence()}`,
    '- ' + sentence() + '\n- ' + sentence(),
    '## Reference',
    `${sentence()} ${sentence()}`,
  ].join('\n\n');
}

/**
 * 1,000 distinct Documents (one per page of the first 10 spaces), which the pages of the spaces share in
 * turn: reading Markdown is most of the cost of writing a page, and content_documents stores each once.
 */
const BODIES = 1000;
const bodies = new Map<number, StoredPage>();
function bodyOf(n: number, now: string): StoredPage['document'] {
  let page = bodies.get(n);
  if (!page) {
    page = { id: 'body', parent: null, position: 'a0', type: 'document', title: '', slug: '', hidden: false, noIndex: false, noRobotsIndex: false, createdAt: now, updatedAt: now };
    setPageContent(page, { markdown: markdownOf(prng(n), 1 + Math.floor(n / PAGES_PER_SPACE), 1 + (n % PAGES_PER_SPACE)) }, 'bench');
    bodies.set(n, page);
  }
  return page.document;
}

/** 100 pages: 10 top-level pages with 9 children each; the space's own word in its pages' titles. */
function contentOf(space: number, now: string): RevisionContent {
  const pages: StoredPage[] = [];
  let lastTop: string | undefined;
  let lastChild: string | undefined;
  for (let i = 0; i < PAGES_PER_SPACE; i++) {
    const top = i % 10 === 0;
    const position = keyAfter(top ? lastTop : lastChild);
    if (top) {
      lastTop = position;
      lastChild = undefined;
    } else lastChild = position;
    const title = `Topic ${i + 1} word${space}`;
    const page: StoredPage = {
      id: `pag_s${space}p${i + 1}`,
      parent: top ? null : pages[i - (i % 10)].id,
      position,
      type: 'document',
      title,
      slug: `topic-${i + 1}`,
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      createdAt: now,
      updatedAt: now,
      document: bodyOf(((space - 1) * PAGES_PER_SPACE + i) % BODIES, now),
    };
    pages.push(page);
  }
  return { pages, files: [], variables: {}, reusableContents: [] };
}

export interface Workspace {
  organizationId: string;
  /** The organization's admin. */
  token: string;
  /** A guest who reaches spaces through grants (their own and their teams'). */
  guestToken: string;
  guestId: string;
  /** The space read, its first page's id, and a team and its members' list. */
  spaceId: string;
  pageId: string;
  teamId: string;
  /** Seconds each part took. */
  timings: Record<string, number>;
}

const spaceId = (n: number | string) => `'spc_bench' || lpad((${n})::text, 6, '0')`;
const userId = (n: number | string) => `'usr_bench' || lpad((${n})::text, 6, '0')`;
const teamId = (n: number | string) => `'tem_bench' || lpad((${n})::text, 6, '0')`;

export async function seedWorkspace(database: Database, size: WorkspaceSize, log: (line: string) => void): Promise<Workspace> {
  const timings: Record<string, number> = {};
  let started = performance.now();
  const lap = (name: string) => {
    timings[name] = Math.round(performance.now() - started) / 1000;
    log(`  ${name}: ${timings[name]} s`);
    started = performance.now();
  };
  const exec = (text: string) => database.db.execute(text as never);
  const owner = await createUser(database.db, { email: 'owner@bench.example', displayName: 'Owner' });
  const organization = await createOrganization(database.db, { title: 'Bench', ownerId: owner.id });
  const token = await issueToken(database.db, owner.id, 'bench');
  const org = `'${organization.id}'`;
  const collections = Math.max(1, Math.ceil(size.spaces / 10));

  // Members (user 1 is the guest measured), teams of 10 members each (a member may be in several).
  await exec(`INSERT INTO users (id, display_name, email, created_at)
    SELECT ${userId('i')}, 'User ' || i, 'user' || i || '@bench.example', now() FROM generate_series(1, ${size.members}) i`);
  await exec(`INSERT INTO members (organization_id, user_id, role, joined_at)
    SELECT ${org}, ${userId('i')}, CASE WHEN i = 1 THEN NULL ELSE (ARRAY['read','comment','edit','review','create'])[1 + i % 5] END,
      now() - (i || ' seconds')::interval FROM generate_series(1, ${size.members}) i`);
  await exec(`INSERT INTO teams (id, organization_id, title, created_at)
    SELECT ${teamId('i')}, ${org}, 'Team ' || i, now() FROM generate_series(1, ${size.teams}) i`);
  await exec(`INSERT INTO team_members (team_id, organization_id, user_id, role, created_at)
    SELECT ${teamId('1 + (t - 1) % ' + size.teams)}, ${org}, ${userId('1 + ((t - 1) * 7) % ' + size.members)}, CASE WHEN t % 10 = 0 THEN 'owner' ELSE 'member' END, now()
    FROM generate_series(1, ${size.teams * 10}) t ON CONFLICT DO NOTHING`);
  // The guest is in 3 teams.
  await exec(`INSERT INTO team_members (team_id, organization_id, user_id, role, created_at)
    SELECT ${teamId('1 + (t * 97) % ' + size.teams)}, ${org}, ${userId(1)}, 'member', now() FROM generate_series(1, 3) t ON CONFLICT DO NOTHING`);
  lap('members and teams');

  // Collections of 10 spaces; spaces with a placeholder revision until theirs is written below.
  await exec(`INSERT INTO collections (id, organization_id, title, default_level, position, created_at, updated_at)
    SELECT 'col_bench' || lpad(i::text, 6, '0'), ${org}, 'Collection ' || i, 'inherit', 'a' || lpad(i::text, 6, '0'), now(), now()
    FROM generate_series(1, ${collections}) i`);
  await exec(`INSERT INTO spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, merge_rules, revision_id, default_level, position, created_at, updated_at)
    SELECT ${spaceId('i')}, ${org}, 'col_bench' || lpad((1 + (i - 1) / 10)::text, 6, '0'), 'Space ' || i, '', 'in-collection', 'live', '{"type":"inherit"}', '',
      CASE WHEN i % 2 = 0 THEN NULL ELSE 'inherit' END, 'a' || lpad(i::text, 6, '0'), now(), now() FROM generate_series(1, ${size.spaces}) i`);
  // Grants: each team on 2 spaces and its collection, 1 member in 2 on a space; the guest on 5 spaces.
  await exec(`INSERT INTO content_grants (id, organization_id, space_id, team_id, role, created_at)
    SELECT 'cgr_bt' || t || '_' || k, ${org}, ${spaceId(`1 + ((t - 1) * 2 + k) % ${size.spaces}`)}, ${teamId('t')}, 'edit', now()
    FROM generate_series(1, ${size.teams}) t, generate_series(0, 1) k ON CONFLICT DO NOTHING`);
  await exec(`INSERT INTO content_grants (id, organization_id, collection_id, team_id, role, created_at)
    SELECT 'cgr_bc' || t, ${org}, 'col_bench' || lpad((1 + (t - 1) % ${collections})::text, 6, '0'), ${teamId('t')}, 'read', now()
    FROM generate_series(1, ${size.teams}) t ON CONFLICT DO NOTHING`);
  await exec(`INSERT INTO content_grants (id, organization_id, space_id, user_id, role, created_at)
    SELECT 'cgr_bu' || u, ${org}, ${spaceId(`1 + (u * 13) % ${size.spaces}`)}, ${userId('u')}, 'comment', now()
    FROM generate_series(2, ${size.members}, 2) u ON CONFLICT DO NOTHING`);
  await exec(`INSERT INTO content_grants (id, organization_id, space_id, user_id, role, created_at)
    SELECT 'cgr_bg' || k, ${org}, ${spaceId(`1 + (k * 31) % ${size.spaces}`)}, ${userId(1)}, 'read', now()
    FROM generate_series(0, 4) k ON CONFLICT DO NOTHING`);
  lap('collections, spaces and grants');

  // The pages: one revision per space, written as the server writes one.
  const now = new Date();
  for (let s = 1; s <= size.spaces; s++) {
    const id = `spc_bench${String(s).padStart(6, '0')}`;
    const revision = insertRevisionSql(id, { parents: [], type: 'edits', content: contentOf(s, now.toISOString()) }, now);
    await runSql(database.db, sqlText`WITH ${revision.ctes}, u AS (UPDATE spaces SET revision_id = ${revision.id}::text WHERE id = ${id}::text) SELECT 1`);
  }
  lap('pages');

  // Comments on the pages of each space, change requests of each space (at its revision).
  await exec(`INSERT INTO comments (id, space_id, posted_by, posted_at, body, page_id, revision_id, status)
    SELECT 'cmt_bench' || lpad(s::text, 6, '0') || lpad(c::text, 3, '0'), ${spaceId('s')}, ${userId(`1 + (s * 50 + c) % ${size.members}`)}, now() - (c || ' minutes')::interval,
      'Comment ' || c || ' on space ' || s, 'pag_s' || s || 'p' || (1 + c % ${PAGES_PER_SPACE}), sp.revision_id, CASE WHEN c % 3 = 0 THEN 'resolved' ELSE 'open' END
    FROM generate_series(1, ${size.spaces}) s JOIN spaces sp ON sp.id = ${spaceId('s')}, generate_series(1, ${size.comments}) c`);
  await exec(`INSERT INTO change_requests (id, organization_id, space_id, number, status, subject, created_by, revision_id, revision_initial, created_at, updated_at)
    SELECT 'crq_bench' || lpad(s::text, 6, '0') || lpad(c::text, 3, '0'), ${org}, ${spaceId('s')}, c, CASE WHEN c % 4 = 0 THEN 'merged' ELSE 'open' END,
      'Change ' || c, ${userId(`1 + (s + c) % ${size.members}`)}, sp.revision_id, sp.revision_id, now() - (c || ' hours')::interval, now() - (c || ' minutes')::interval
    FROM generate_series(1, ${size.spaces}) s JOIN spaces sp ON sp.id = ${spaceId('s')}, generate_series(1, ${size.changeRequests}) c`);
  lap('comments and change requests');

  // The search index, as the catch-up job builds it.
  for (let s = 1; s <= size.spaces; s++) await catchUpSpace(database.db, `spc_bench${String(s).padStart(6, '0')}`);
  lap('search index');
  // The state a database settles in once the bulk load is behind it: vacuumed (pages marked all-visible, so a
  // count can read an index alone) and analyzed, as PostgreSQL's autovacuum, or the vacuum job on PGlite
  // (server/operating/vacuum.job.ts), leaves it a minute or so after the writes. Both workspaces alike.
  await exec('VACUUM (ANALYZE)');
  lap('vacuum and analyze');

  const guestId = `usr_bench${String(1).padStart(6, '0')}`;
  return {
    organizationId: organization.id,
    token,
    guestToken: await issueToken(database.db, guestId, 'bench guest'),
    guestId,
    spaceId: 'spc_bench000001',
    pageId: 'pag_s1p1',
    teamId: 'tem_bench000001',
    timings,
  };
}
