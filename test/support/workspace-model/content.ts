// Commands on content: change requests opened, pages written into them, merges (the space's pages become
// its pages plus the change request's), page content read back, and comments with replies.
import fc from 'fast-check';
import { expect } from 'vitest';
import { command, expectStatus, live, pick, word, type ChangeRequest, type Cmd, type Model, type Page, type Real, type SpaceItem } from './model.js';

const hasSpaces = (m: Readonly<Model>) => m.spaces.length > 0;
const sortedTitles = (pages: Page[]) => pages.map((p) => p.title).sort();

/** The top-level pages' titles of a listing, sorted (the model's pages are all at the top level). */
function listedTitles(pages: { title: string }[]): string[] {
  return pages.map((p) => p.title).sort();
}

async function expectSpacePages(r: Real, space: SpaceItem): Promise<void> {
  const res = await r.admin.api.get(`/spaces/${space.id}/content/pages`);
  if (space.deleted) return expectStatus(res, 404, `listPages of deleted space ${space.id}`);
  expectStatus(res, 200, 'listPages');
  expect(listedTitles(res.body.pages)).toEqual(sortedTitles(space.pages));
}

async function expectChangeRequests(r: Real, space: SpaceItem): Promise<void> {
  for (const status of ['open', 'merged'] as const) {
    const res = await r.admin.api.get(`/spaces/${space.id}/change-requests`, { limit: 100, status });
    if (space.deleted) return expectStatus(res, 404, `listChangeRequestsForSpace of deleted space ${space.id}`);
    expectStatus(res, 200, `listChangeRequestsForSpace (${status})`);
    const listed = res.body.items.map((cr: { number: number; subject?: string }) => [cr.number, cr.subject ?? '']);
    const expected = space.changeRequests.filter((cr) => cr.status === status);
    expect(listed.sort()).toEqual(expected.map((cr) => [cr.number, cr.subject]).sort());
    expect(res.body.count).toBe(expected.length);
  }
}

async function expectChangeRequestPages(r: Real, space: SpaceItem, cr: ChangeRequest): Promise<void> {
  const res = await r.admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
  expectStatus(res, 200, 'listPagesInChangeRequest');
  // Open: its base and what it adds. Merged: the content it merged (the space's then), which the model
  // does not keep, so only its own pages are looked for.
  if (cr.status === 'open') expect(listedTitles(res.body.pages)).toEqual(sortedTitles([...cr.base, ...cr.added]));
  else expect(listedTitles(res.body.pages)).toEqual(expect.arrayContaining(sortedTitles(cr.added)));
}

/**
 * A change request picked by two numbers, among those `preferred` accepts when there are any (an open one
 * to write in, one with pages to merge: uniform picks would rarely reach a merged page), else among all.
 */
function pickChangeRequest(m: Readonly<Model>, s: number, c: number, preferred: (cr: ChangeRequest) => boolean): { space: SpaceItem; cr: ChangeRequest } {
  const all = m.spaces.flatMap((space) => space.changeRequests.map((cr) => ({ space, cr })));
  const wanted = all.filter(({ space, cr }) => !space.deleted && preferred(cr));
  return pick(wanted.length > 0 && c % 4 !== 0 ? wanted : all, s + c)!;
}
const hasChangeRequests = (m: Readonly<Model>) => m.spaces.some((s) => s.changeRequests.length > 0);
const hasComments = (m: Readonly<Model>) => m.spaces.some((s) => s.comments.length > 0);

export const contentCommands: fc.Arbitrary<Cmd>[] = [
  fc.tuple(fc.nat(), word).map(([n, subject]) =>
    command(`openChangeRequest(#${n}, ${JSON.stringify(subject)})`, hasSpaces, async (m, r) => {
      const space = pick(m.spaces, n)!;
      const res = await r.admin.api.post(`/spaces/${space.id}/change-requests`, { subject });
      expectStatus(res, space.deleted ? 404 : 201, 'createChangeRequest');
      if (space.deleted) return;
      const number = space.changeRequests.length + 1;
      expect(res.body.number).toBe(number);
      const cr: ChangeRequest = { id: res.body.id, number, subject, status: 'open', base: [...space.pages], added: [] };
      space.changeRequests.push(cr);
      await expectChangeRequests(r, space);
      await expectChangeRequestPages(r, space, cr);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat(), word, word).map(([s, c, t, text]) =>
    command(`writePage(#${s}, cr #${c}, ${JSON.stringify(t)}, ${JSON.stringify(text)})`, hasChangeRequests, async (m, r) => {
      const { space, cr } = pickChangeRequest(m, s, c, (x) => x.status === 'open');
      const res = await r.admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: [{ operation: 'insert_page', title: t, document: { markdown: text } }],
      });
      expectStatus(res, space.deleted ? 404 : cr.status === 'merged' ? 409 : 200, 'updateChangeRequestContent');
      if (res.status !== 200) return;
      cr.added.push({ title: t, text });
      await expectChangeRequestPages(r, space, cr);
      // Nothing reaches the space before the merge.
      await expectSpacePages(r, space);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([s, c]) =>
    command(`mergeChangeRequest(#${s}, cr #${c})`, hasChangeRequests, async (m, r) => {
      const { space, cr } = pickChangeRequest(m, s, c, (x) => x.status === 'open' && x.added.length > 0);
      const res = await r.admin.api.post(`/spaces/${space.id}/change-requests/${cr.id}/merge`);
      expectStatus(res, space.deleted ? 404 : cr.status === 'merged' ? 409 : 200, 'mergeChangeRequest');
      if (res.status === 200) {
        cr.status = 'merged';
        space.pages.push(...cr.added);
        const read = await r.admin.api.get(`/spaces/${space.id}/change-requests/${cr.id}`);
        expectStatus(read, 200, 'getChangeRequestById');
        expect(read.body.status).toBe('merged');
        expect((await r.admin.api.get(`/spaces/${space.id}`)).body.revision).toBe(res.body.revision);
      }
      await expectSpacePages(r, space);
      await expectChangeRequests(r, space);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([s, p]) =>
    command(`readPage(#${s}, page #${p})`, (m) => m.spaces.some((x) => x.pages.length > 0), async (m, r) => {
      const space = pick(m.spaces.filter((x) => x.pages.length > 0), s)!;
      const page = pick(space.pages, p)!;
      const listed = await r.admin.api.get(`/spaces/${space.id}/content/pages`);
      expectStatus(listed, space.deleted ? 404 : 200, 'listPages');
      if (space.deleted) return;
      const found = listed.body.pages.find((x: { title: string }) => x.title === page.title);
      expect(found, `page ${page.title} listed`).toBeDefined();
      const res = await r.admin.api.get(`/spaces/${space.id}/content/page/${found.id}`, { format: 'markdown' });
      expectStatus(res, 200, 'getPageById');
      // Pages with the same title: one of them has this text.
      const texts = space.pages.filter((x) => x.title === page.title).map((x) => x.text);
      expect(texts.some((text) => res.body.markdown.includes(text)), `${res.body.markdown} holds one of ${texts}`).toBe(true);
    }),
  ),
  fc.tuple(fc.nat(), word).map(([n, text]) =>
    command(`postComment(#${n}, ${JSON.stringify(text)})`, hasSpaces, async (m, r) => {
      const space = pick(m.spaces, n)!;
      const res = await r.admin.api.post(`/spaces/${space.id}/comments`, { body: { markdown: text } });
      expectStatus(res, space.deleted ? 404 : 200, 'postCommentInSpace');
      if (space.deleted) return;
      space.comments.push({ id: res.body.id, text, replies: 0, deleted: false });
      await expectComments(r, space);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat(), word).map(([s, c, text]) =>
    command(`replyToComment(#${s}, comment #${c}, ${JSON.stringify(text)})`, hasComments, async (m, r) => {
      const space = pick(m.spaces.filter((x) => x.comments.length > 0), s)!;
      const comment = pick(space.comments, c)!;
      const res = await r.admin.api.post(`/spaces/${space.id}/comments/${comment.id}/replies`, { body: { markdown: text } });
      expectStatus(res, space.deleted || comment.deleted ? 404 : 200, 'postCommentReplyInSpace');
      if (res.status === 200) comment.replies += 1;
      if (!space.deleted) await expectComments(r, space);
    }),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([s, c]) =>
    command(`deleteComment(#${s}, comment #${c})`, hasComments, async (m, r) => {
      const space = pick(m.spaces.filter((x) => x.comments.length > 0), s)!;
      const comment = pick(space.comments, c)!;
      const res = await r.admin.api.delete(`/spaces/${space.id}/comments/${comment.id}`);
      // Documented: no content also when the comment no longer exists.
      expectStatus(res, space.deleted ? 404 : 204, 'deleteCommentInSpace');
      if (res.status === 204) comment.deleted = true;
      if (!space.deleted) await expectComments(r, space);
    }),
  ),
];

/** The comments of a space, their text and number of replies, against the model's. */
async function expectComments(r: Real, space: SpaceItem): Promise<void> {
  const res = await r.admin.api.get(`/spaces/${space.id}/comments`, { limit: 100 });
  expectStatus(res, 200, 'listCommentsInSpace');
  const listed = res.body.items.map((c: { id: string; body: { markdown?: string }; replies: number }) => [c.id, c.body.markdown, c.replies]);
  expect(listed.sort()).toEqual(live(space.comments).map((c) => [c.id, c.text, c.replies]).sort());
  expect(res.body.count).toBe(live(space.comments).length);
}
