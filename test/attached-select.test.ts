// A Drizzle select attached to a grant's statement (server/db/attached-select.ts) answers what the select
// answers when Drizzle runs it: the same rows, mapped the same (timestamps as Dates, jsonb, counts, a
// left-joined side that is absent as null), on either storage. The grant query here is the organization's
// own (server/auth/grants.ts), with the read attached, as the operations attach theirs.
import { describe, expect, it } from 'vitest';
import { attachAll, attachedRows, attachListPage, attachSelect, pageOf, readAttached } from '../server/db/attached-select.js';
import { grantedOrganizationRole } from '../server/auth/granted-organization-role.js';
import { encodeCursor } from '../server/db/cursor.js';
import { readOrganizationGrant, readSpaceGrant } from '../server/auth/grants.js';
import { attachedElsewhere, elsewhereRead } from '../server/content/elsewhere-attached.js';
import { checkElsewhereLinks } from '../server/content/elsewhere-refs.js';
import type { FoundLink } from '../server/content/links.js';
import { memberSelect } from '../server/members/members.store.js';
import { spacesPageSelects } from '../server/spaces/spaces.store.js';
import { versionSelect } from '../server/openapi/specs.store.js';
import { teamsPageSelects } from '../server/teams/teams.store.js';
import { useHarness } from './support/harness.js';
import { spaceWithPages } from './published-support.js';

const h = useHarness();

describe('attached select', () => {
  it("gives a member's row as Drizzle reads it, and no row for a non-member", async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    for (const userId of [admin.userId, other.userId]) {
      const select = memberSelect(ctx, admin.organizationId, userId);
      const found = await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId, attachSelect('member', select));
      expect(found?.isMember).toBe(true);
      const attached = attachedRows(found?.attached, 'member', memberSelect(ctx, admin.organizationId, userId));
      expect(attached).toEqual(await memberSelect(ctx, admin.organizationId, userId));
    }
    const [row] = attachedRows(
      (await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId, attachSelect('member', memberSelect(ctx, admin.organizationId, admin.userId))))?.attached,
      'member',
      memberSelect(ctx, admin.organizationId, admin.userId),
    )!;
    expect(row.member.joinedAt).toBeInstanceOf(Date);
    expect(row.user.id).toBe(admin.userId);
  });

  it('gives the null side of a left join as null, and nothing when the grant did not carry the read', async () => {
    const admin = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    const put = await admin.api.put(`/orgs/${admin.organizationId}/openapi/petstore`, { source: { text: 'openapi: 3.0.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n' } });
    expect(put.status).toBe(201);
    const select = () => versionSelect(ctx, admin.organizationId, 'petstore', 'ver_none');
    const found = await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId, attachSelect('spec_version', select()));
    const rows = attachedRows(found?.attached, 'spec_version', select());
    expect(rows).toEqual(await select());
    expect(rows).toHaveLength(1);
    expect(rows![0].version).toBeNull();
    expect(rows![0].spec.createdAt).toBeInstanceOf(Date);
    const plain = await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId);
    expect(attachedRows(plain?.attached, 'spec_version', select())).toBeUndefined();
  });

  // A page after a cursor may come back empty (its items deleted since): its total is attached apart, so
  // the list stays one statement; the first page needs none (empty means an empty list).
  it("attaches a list page's total when the page goes on from a cursor, and reads it from the grant", async () => {
    const admin = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    for (const title of ['One', 'Two']) expect((await admin.api.put(`/orgs/${admin.organizationId}/teams`, { title })).status).toBe(201);
    // After the last team (ids sort below this one): an empty page of a list of two.
    const past = { page: encodeCursor(['tem_zzzzzzzzzzzzzzzzzzzzzzzzzz']), limit: 1 };
    const first = attachListPage('teams', teamsPageSelects(ctx, admin.organizationId, { limit: 1 }));
    const after = attachListPage('teams', teamsPageSelects(ctx, admin.organizationId, past));
    expect(first.sql(1)).not.toContain('teams_total_rows');
    expect(after.sql(1)).toContain('teams_total_rows');
    const found = await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId, after);
    const selects = teamsPageSelects(ctx, admin.organizationId, past);
    const unread = Object.assign(selects.total, { then: () => Promise.reject(new Error('the total was counted again')) });
    expect(await pageOf(found?.attached, 'teams', selects.page, selects.rows, unread)).toEqual({ items: [], totalCount: 2 });
  });

  // The operations whose handler decides their access (the integration platform's) send their grant's
  // select and their read together, with no grant query to attach them to.
  it('reads attached selects as a statement of their own (readAttached), as Drizzle reads them', async () => {
    const admin = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    for (const title of ['One', 'Two']) expect((await admin.api.put(`/orgs/${admin.organizationId}/teams`, { title })).status).toBe(201);
    const past = { page: encodeCursor(['tem_zzzzzzzzzzzzzzzzzzzzzzzzzz']), limit: 1 };
    const member = () => memberSelect(ctx, admin.organizationId, admin.userId);
    const selects = teamsPageSelects(ctx, admin.organizationId, past);
    const attached = await readAttached(ctx.db, attachAll('alone', attachSelect('member', member()), attachListPage('teams', selects)));
    expect(attachedRows(attached, 'member', member())).toEqual(await member());
    const unread = Object.assign(selects.total, { then: () => Promise.reject(new Error('the total was counted again')) });
    expect(await pageOf(attached, 'teams', selects.page, selects.rows, unread)).toEqual({ items: [], totalCount: 2 });
  });

  // A list whose rows show the caller's role on each space reads their organization role in SQL when it is
  // attached (granted-organization-role.ts): the same rows as with the role the grant gives, for each role.
  it('gives the rows of a list whose roles follow from the organization role read in SQL, as with the role given', async () => {
    const admin = await h.current.newAdmin();
    for (const title of ['One', 'Two']) expect((await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title })).status).toBe(201);
    for (const role of ['admin', 'read', null] as const) {
      const caller = role === 'admin' ? admin : await h.current.newMember(admin.organizationId, role);
      const ctx = h.current.ctx(caller.userId);
      const inSql = grantedOrganizationRole(ctx, admin.organizationId)!;
      const found = await readOrganizationGrant(ctx.db, admin.organizationId, caller.userId, attachListPage('spaces', spacesPageSelects(ctx, admin.organizationId, inSql, {})));
      const attached = attachedRows(found?.attached, 'spaces', spacesPageSelects(ctx, admin.organizationId, inSql, {}).rows);
      expect(attached).toEqual(await spacesPageSelects(ctx, admin.organizationId, role, {}).rows);
      // An admin sees both spaces; a guest, granted none, sees none.
      if (role !== 'read') expect(attached).toHaveLength(role === null ? 0 : 2);
    }
  });

  // elsewhere-attached.ts: the spaces and users a revision's Documents name, looked up as the link checker
  // looks them up itself (elsewhere-refs.ts `known`), which it still does for an id the statement did not look up.
  it("looks up the spaces and users a revision's Documents name as the link checker does", async () => {
    const admin = await h.current.newAdmin();
    const stranger = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    const kept = await spaceWithPages(admin, 'Kept', [{ title: 'Start', markdown: 'Here.' }]);
    const gone = await spaceWithPages(admin, 'Gone', [{ title: 'Start', markdown: 'Trashed.' }]);
    expect((await admin.api.delete(`/spaces/${gone}`)).status).toBe(204);
    const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
    const ref = (r: object) => ({ object: 'inline', type: 'link', data: { ref: r }, nodes: [text('x')] });
    const refs = [{ kind: 'space', space: kept }, { kind: 'space', space: gone }, { kind: 'user', user: admin.userId }, { kind: 'user', user: stranger.userId }];
    const document = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: refs.map(ref) }] };
    const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title: 'Guides' });
    const cr = await admin.api.post(`/spaces/${space.body.id}/change-requests`);
    const written = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content`, { changes: [{ operation: 'insert_page', title: 'Home', document: { document } }] });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);

    const current = { sql: () => 'SELECT s.revision_id', params: [], hash: 'current' };
    const found = await readSpaceGrant(ctx.db, space.body.id, admin.userId, false, elsewhereRead(current, undefined));
    const lookup = attachedElsewhere(found?.attached);
    expect(lookup).toEqual({
      looked: { spaces: new Set([kept, gone]), users: new Set([admin.userId, stranger.userId]) },
      found: { spaces: new Set([kept]), users: new Set([admin.userId]) },
    });
    const links: FoundLink[] = refs.map((target) => ({ from: 'pag_home', relation: 'link', status: 'ok', target: target as FoundLink['target'] }));
    const checked = await checkElsewhereLinks(ctx, admin.organizationId, links);
    expect(checked.map((l) => l.status)).toEqual(['ok', 'broken', 'ok', 'broken']);
    expect(await checkElsewhereLinks(ctx, admin.organizationId, links, lookup)).toEqual(checked);
    // A lookup that missed an id is not trusted: the checker looks them up itself.
    const missed = { looked: { spaces: new Set<string>(), users: new Set<string>() }, found: { spaces: new Set<string>(), users: new Set<string>() } };
    expect(await checkElsewhereLinks(ctx, admin.organizationId, links, missed)).toEqual(checked);
  });
});
