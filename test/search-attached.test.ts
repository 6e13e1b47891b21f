// The searches read in their grant's statement (server/search/search-attached.ts): the organization
// search is one statement for a member of every role, the space search one statement, also right after a
// write (which indexed its content as it committed: server/search/index-at-commit.ts), and each answers
// byte for byte what the search run on its own answers (search.ts without the grant's rows: the code path
// before they were attached), to the right caller only.
import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { encodeCursor } from '../server/db/cursor.js';
import { members } from '../server/db/schema/index.js';
import { RANK_FULL_TEXT_UP_TO, searchOrganization, searchSpace } from '../server/search/search.js';
import { send } from './support/api.js';
import { PUBLIC_URL, useHarness, type Account } from './support/harness.js';
import { spaceWith } from './support/organization-search.js';

const h = useHarness();

/** An app that reports how many statements each request sent. */
function countingApp() {
  const seen: { statements?: number } = {};
  const app = createApp({
    db: h.current.db,
    logger: pino({ level: 'silent' }),
    publicUrl: PUBLIC_URL,
    onStatements: (_id, statements) => {
      seen.statements = statements;
    },
  });
  /** The answer's status, its JSON text and the statements it sent. */
  return async (account: Account, path: string, request: { query: string; page?: string; limit?: number }) => {
    seen.statements = undefined;
    const query = Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined)) as Record<string, string | number>;
    const res = await send(app, 'get', `/v1${path}`, { token: account.token, query });
    return { status: res.status, text: JSON.stringify(res.body), statements: seen.statements };
  };
}

describe('searches in the grant statement', () => {
  it('searches the organization in one statement, answering each member what the search alone answers', async () => {
    const admin = await h.current.newAdmin();
    const org = admin.organizationId;
    const open = await spaceWith(admin, 'Open', [['Deploy', 'How to deploy the service.'], ['Release', 'Deploy every week.']]);
    const closed = await spaceWith(admin, 'Closed', [['Deploy secrets', 'Where we deploy the keys.']]);
    // Many matches: a plain word on more than RANK_FULL_TEXT_UP_TO pages takes the early-stopping walk (migration 0058).
    await spaceWith(admin, 'Big', Array.from({ length: RANK_FULL_TEXT_UP_TO + 10 }, (_, i): [string, string] => [`Step ${i}`, `Deploy step ${i}.`]));
    expect((await admin.api.patch(`/spaces/${closed.spaceId}`, { defaultLevel: null })).status).toBe(200);
    const reader = await h.current.newMember(org, 'read');
    const granted = await h.current.newMember(org, 'read');
    expect((await admin.api.post(`/spaces/${closed.spaceId}/permissions`, { role: 'read', users: [granted.userId] })).status).toBe(204);
    const guest = await h.current.newMember(org, null);
    expect((await admin.api.post(`/spaces/${open.spaceId}/permissions`, { role: 'read', users: [guest.userId] })).status).toBe(204);
    const get = countingApp();

    const closedSeen: Record<string, boolean> = {};
    for (const [name, caller, isAdmin] of [['admin', admin, true], ['reader', reader, false], ['granted', granted, false], ['guest', guest, false]] as const) {
      for (const request of [{ query: 'deploy' }, { query: 'deploy', limit: 1 }, { query: 'deploy or keys', limit: 2 }, { query: 'secrets' }, { query: 'nothing-matches' }]) {
        const answer = await get(caller, `/orgs/${org}/search`, request);
        expect(answer.status, `${name} ${JSON.stringify(request)}`).toBe(200);
        expect(answer.statements, `${name} ${JSON.stringify(request)}`).toBe(1);
        const alone = await searchOrganization(h.current.ctx(caller.userId), org, isAdmin ? null : caller.userId, request.query, request);
        expect(answer.text, `${name} ${JSON.stringify(request)}`).toBe(JSON.stringify(alone));
        // The next answer, from its cursor, likewise.
        const next = (JSON.parse(answer.text) as { next?: { page: string } }).next;
        if (next) {
          const second = await get(caller, `/orgs/${org}/search`, { ...request, page: next.page });
          expect(second.status).toBe(200);
          expect(second.statements).toBe(1);
          expect(second.text).toBe(JSON.stringify(await searchOrganization(h.current.ctx(caller.userId), org, isAdmin ? null : caller.userId, request.query, { ...request, page: next.page })));
        }
      }
      const secrets = JSON.parse((await get(caller, `/orgs/${org}/search`, { query: 'secrets' })).text) as { items: { id: string }[] };
      closedSeen[name] = secrets.items.some((s) => s.id === closed.spaceId);
    }
    // The closed space only for those who may read it.
    expect(closedSeen).toEqual({ admin: true, reader: false, granted: true, guest: false });
    const guestAnswer = JSON.parse((await get(guest, `/orgs/${org}/search`, { query: 'deploy' })).text) as { items: { id: string }[]; count: number };
    expect(guestAnswer.items.map((s) => s.id)).toEqual([open.spaceId]);
    expect(guestAnswer.count).toBe(1);

    // Not a member: not found, whatever the cursor; a member's bad cursor: 400 naming it.
    const outsider = await h.current.newAdmin();
    expect((await get(outsider, `/orgs/${org}/search`, { query: 'deploy' })).status).toBe(404);
    expect((await get(outsider, `/orgs/${org}/search`, { query: 'deploy', page: 'nonsense' })).status).toBe(404);
    const bad = await get(reader, `/orgs/${org}/search`, { query: 'deploy', page: encodeCursor(['not-a-position']) });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('page');
    // A disabled member is no member.
    await h.current.db.update(members).set({ disabled: true }).where(and(eq(members.organizationId, org), eq(members.userId, reader.userId)));
    expect((await get(reader, `/orgs/${org}/search`, { query: 'deploy' })).status).toBe(404);
  });

  it('searches a space in one statement, right after a write too, answering what the search alone answers', async () => {
    const admin = await h.current.newAdmin();
    const s = await spaceWith(admin, 'Docs', [['Deploy', 'How to deploy the service.'], ['Tokens', 'Create a token.']]);
    const get = countingApp();
    const alone = (request: { query: string; page?: string; limit?: number }, revisionId: string) =>
      searchSpace(h.current.ctx(admin.userId), { id: s.spaceId, revisionId }, request.query, request);
    const revisionOf = async () => (await admin.api.get(`/spaces/${s.spaceId}`)).body.revision as string;

    // Searched for the first time right after the merge that wrote it: one statement.
    const first = await get(admin, `/spaces/${s.spaceId}/search`, { query: 'deploy' });
    expect(first.status).toBe(200);
    expect(first.statements).toBe(1);
    expect(JSON.parse(first.text).items.map((i: { title: string }) => i.title)).toEqual(['Deploy']);
    // One statement, the same answer as the search alone, for each request.
    for (const request of [{ query: 'deploy' }, { query: 'deploy or token', limit: 1 }, { query: 'missing' }]) {
      const answer = await get(admin, `/spaces/${s.spaceId}/search`, request);
      expect(answer.status).toBe(200);
      expect(answer.statements, JSON.stringify(request)).toBe(1);
      expect(answer.text).toBe(JSON.stringify(await alone(request, await revisionOf())));
    }
    const paged = await get(admin, `/spaces/${s.spaceId}/search`, { query: 'deploy or token', limit: 1 });
    const page = (JSON.parse(paged.text) as { next: { page: string } }).next.page;
    const second = await get(admin, `/spaces/${s.spaceId}/search`, { query: 'deploy or token', limit: 1, page });
    expect(second.statements).toBe(1);
    expect(second.text).toBe(JSON.stringify(await alone({ query: 'deploy or token', limit: 1, page }, await revisionOf())));

    // A write moves the space on: the search at once finds the new page and loses the changed text, in one statement.
    const cr = await admin.api.post(`/spaces/${s.spaceId}/change-requests`);
    expect(cr.status).toBe(201);
    const tokens = s.pages[1];
    const added = await admin.api.post(`/spaces/${s.spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Rollback', document: { markdown: 'Undo a deploy.' } },
        { operation: 'update_page', page: tokens, document: { markdown: 'Revoke a credential.' } },
      ],
    });
    expect(added.status).toBe(200);
    expect((await admin.api.post(`/spaces/${s.spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const after = await get(admin, `/spaces/${s.spaceId}/search`, { query: 'deploy' });
    expect(after.status).toBe(200);
    expect(after.statements).toBe(1);
    expect(JSON.parse(after.text).items.map((i: { title: string }) => i.title).sort()).toEqual(['Deploy', 'Rollback']);
    expect(after.text).toBe(JSON.stringify(await alone({ query: 'deploy' }, await revisionOf())));
    const changed = await get(admin, `/spaces/${s.spaceId}/search`, { query: 'create' });
    expect(changed.statements).toBe(1);
    expect(JSON.parse(changed.text)).toEqual({ items: [], count: 0 });
    const revoke = await get(admin, `/spaces/${s.spaceId}/search`, { query: 'credential' });
    expect(revoke.statements).toBe(1);
    expect(JSON.parse(revoke.text).items.map((i: { id: string }) => i.id)).toEqual([tokens]);

    // A space nobody wrote to (no content, no index): one statement too, answering nothing.
    const empty = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Empty' });
    expect(empty.status).toBe(201);
    const nothing = await get(admin, `/spaces/${empty.body.id}/search`, { query: 'deploy' });
    expect(nothing.status).toBe(200);
    expect(nothing.statements).toBe(1);
    expect(JSON.parse(nothing.text)).toEqual({ items: [], count: 0 });

    // Who may not read the space is answered 404 (and a bad cursor 400 only to who may).
    const outsider = await h.current.newAdmin();
    expect((await get(outsider, `/spaces/${s.spaceId}/search`, { query: 'deploy' })).status).toBe(404);
    expect((await get(outsider, `/spaces/${s.spaceId}/search`, { query: 'deploy', page: 'nonsense' })).status).toBe(404);
    const guest = await h.current.newMember(admin.organizationId, null);
    expect((await get(guest, `/spaces/${s.spaceId}/search`, { query: 'deploy' })).status).toBe(404);
    expect((await get(admin, `/spaces/${s.spaceId}/search`, { query: 'deploy', page: encodeCursor(['x']) })).status).toBe(400);
    // A deleted space is not searched.
    expect((await admin.api.delete(`/spaces/${s.spaceId}`)).status).toBe(204);
    expect((await get(admin, `/spaces/${s.spaceId}/search`, { query: 'deploy' })).status).toBe(404);
  });
});
