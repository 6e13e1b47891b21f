// The people-and-content half of the demo: teams, nested collections, spaces with their pages, change
// requests in each status, and comments with replies — all through the API, acting as the demo's people.
import type { components } from '../../generated/types.js';
import { DEMO_CHANGE_REQUESTS, DEMO_COLLECTIONS, DEMO_COMMENTS, DEMO_OWNER, DEMO_SPACES, DEMO_TEAMS, type DemoPage } from './data.js';
import { must, type DemoActors } from './seed.js';

type ContentChange = components['schemas']['ChangeRequestContentChange'];

export interface DemoContent {
  /** Space ids by the keys of data.ts. */
  spaces: Record<string, string>;
}

export async function seedContent(organizationId: string, actors: DemoActors): Promise<DemoContent> {
  const owner = actors[DEMO_OWNER.key].api;
  const org = { params: { path: { organizationId } } };

  for (const team of DEMO_TEAMS) {
    await must(owner.PUT('/orgs/{organizationId}/teams', { ...org, body: { title: team.title, members: team.members.map((key) => actors[key].userId) } }));
  }

  const collections: Record<string, string> = {};
  for (const c of DEMO_COLLECTIONS) {
    const parent = 'parent' in c ? collections[c.parent!] : undefined;
    const created = await must(owner.POST('/orgs/{organizationId}/collections', { ...org, body: { title: c.title, ...(parent && { parent }) } }));
    await must(owner.PATCH('/collections/{collectionId}', { params: { path: { collectionId: created.id } }, body: { description: c.description } }));
    collections[c.key] = created.id;
  }

  const spaces: Record<string, string> = {};
  const firstPages: Record<string, string> = {};
  for (const s of DEMO_SPACES) {
    const parent = s.collection ? collections[s.collection] : undefined;
    const space = await must(owner.POST('/orgs/{organizationId}/spaces', { ...org, body: { title: s.title, emoji: s.emoji, ...(parent && { parent }) } }));
    spaces[s.key] = space.id;
    firstPages[s.key] = (await writePages(actors, DEMO_OWNER.key, space.id, 'Initial content', s.pages, 'merged'))[0];
  }

  for (const cr of DEMO_CHANGE_REQUESTS) await writePages(actors, cr.by, spaces[cr.space], cr.subject, [cr.page], cr.status);

  for (const comment of DEMO_COMMENTS) {
    const spaceId = spaces[comment.space];
    const posted = await must(
      actors[comment.by].api.POST('/spaces/{spaceId}/comments', {
        params: { path: { spaceId } },
        body: { body: { markdown: comment.markdown }, page: firstPages[comment.space] },
      }),
    );
    for (const reply of comment.replies) {
      await must(
        actors[reply.by].api.POST('/spaces/{spaceId}/comments/{commentId}/replies', {
          params: { path: { spaceId, commentId: posted.id } },
          body: { body: { markdown: reply.markdown } },
        }),
      );
    }
  }
  return { spaces };
}

/**
 * Opens a change request as `by` that adds `pages` (and their children) to the space, and leaves it in
 * `status` (merged by the reviewer). Returns the ids of the top-level pages it added.
 */
async function writePages(actors: DemoActors, by: string, spaceId: string, subject: string, pages: DemoPage[], status: 'draft' | 'open' | 'merged' | 'archived') {
  const api = actors[by].api;
  const cr = await must(api.POST('/spaces/{spaceId}/change-requests', { params: { path: { spaceId } }, body: { subject } }));
  const path = { spaceId, changeRequestId: cr.id };
  const insert = async (level: DemoPage[], into?: string) => {
    const changes: ContentChange[] = level.map((page) => ({ operation: 'insert_page', title: page.title, document: { markdown: page.markdown }, ...(into && { into }) }));
    const result = await must(api.POST('/spaces/{spaceId}/change-requests/{changeRequestId}/content', { params: { path, query: { compat: false } }, body: { changes } }));
    const ids = (result as components['schemas']['ChangeRequestContentUpdate']).changes.map((change) => (change.object === 'created_page' ? change.page.id : ''));
    for (const [i, page] of level.entries()) if (page.children) await insert(page.children, ids[i]);
    return ids;
  };
  const ids = await insert(pages);
  if (status === 'merged') {
    // Merging needs the review role: the owner merges their own; others' are merged by the reviewer.
    const merger = by === DEMO_OWNER.key ? api : actors.linus.api;
    await must(merger.POST('/spaces/{spaceId}/change-requests/{changeRequestId}/merge', { params: { path } }));
  } else if (status !== 'open') {
    await must(api.PATCH('/spaces/{spaceId}/change-requests/{changeRequestId}', { params: { path }, body: { status } }));
  }
  return ids;
}
