// The access check of every operation (server/auth/access.ts `checkAccess` and the reads of
// server/auth/grants.ts) on an in-memory PGlite migrated once for the file, with one world seeded once: the
// exact decision — the grant with its role, or the refusal with its status and message — for each rule
// kind of contract/access.ts and each way docs/permissions.md says a role is reached (organization role,
// defaultLevel, own and team grants, collection levels and grants inherited, guests, sites, the trash).
// test/access-matrix.test.ts and test/access-inheritance.test.ts prove the same through HTTP.
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../contract/access.js';
import { checkAccess, findCollectionGrant, RefusedGrant, requireOrganizationGrant, roleOfUserOnCollection, roleOfUserOnSpace, siteOrganizationGrant, type AccessOptions } from '../../server/auth/access.js';
import { collectionRoleOf, readOrganizationGrant, readOrganizationSiteGrant, readSpaceGrant, spaceRoleOf } from '../../server/auth/grants.js';
import type { Role } from '../../server/auth/roles.js';
import type { Ctx } from '../../server/context.js';
import type { AttachedRead } from '../../server/db/attached-select.js';
import { createDb, type Database } from '../../server/db/client.js';
import { changeRequests, collections, comments, contentGrants, members, organizations, siteSpaces, sites, spaces, teamMembers, teams, users } from '../../server/db/schema/index.js';
import { ApiError } from '../../server/errors.js';

let database: Database;
const t0 = new Date('2026-03-01T12:00:00.000Z');

// Users of organization `o1` by their role there; `guest` is a member without a role; `gone` is disabled;
// `outsider` belongs to `o2` only; `both` reads in o1 and administers o2; `teamed` reads in o1 and is in team T.
const o1Members: [string, string | null, boolean?][] = [
  ['admin', 'admin'],
  ['creator', 'create'],
  ['editor', 'edit'],
  ['reader', 'read'],
  ['guest', null],
  ['gone', 'edit', true],
  ['both', 'read'],
  ['teamed', 'read'],
  ['teamedGuest', null],
];

beforeAll(async () => {
  database = createDb({ kind: 'pglite', thread: false });
  await database.migrate();
  const db = database.db;
  const org = (id: string) => ({ id, title: id, mergeRules: {}, createdAt: t0 });
  await db.insert(organizations).values([org('o1'), org('o2')]);
  const userIds = [...o1Members.map(([id]) => id), 'outsider'];
  await db.insert(users).values(userIds.map((id) => ({ id, displayName: id, email: `${id}@example.com`, createdAt: t0 })));
  await db.insert(members).values([
    ...o1Members.map(([userId, role, disabled]) => ({ organizationId: 'o1', userId, role, disabled: disabled ?? false, joinedAt: t0 })),
    { organizationId: 'o2', userId: 'outsider', role: 'admin', joinedAt: t0 },
    { organizationId: 'o2', userId: 'both', role: 'admin', joinedAt: t0 },
  ]);
  await db.insert(teams).values([
    { id: 'T', organizationId: 'o1', title: 'T', createdAt: t0 },
    { id: 'G', organizationId: 'o1', title: 'guests', createdAt: t0 },
  ]);
  await db.insert(teamMembers).values([
    { teamId: 'T', organizationId: 'o1', userId: 'teamed', role: 'member', createdAt: t0 },
    { teamId: 'G', organizationId: 'o1', userId: 'teamedGuest', role: 'member', createdAt: t0 },
  ]);
  const collection = (id: string, defaultLevel: string | null, parentId: string | null = null, organizationId = 'o1') => ({
    id,
    organizationId,
    parentId,
    title: id,
    defaultLevel,
    position: 'a',
    createdAt: t0,
    updatedAt: t0,
  });
  await db.insert(collections).values([
    collection('cTop', 'inherit'),
    collection('cPrivate', null),
    collection('cUnderPrivate', 'inherit', 'cPrivate'),
    collection('cDeepUnderPrivate', 'inherit', 'cUnderPrivate'),
    collection('cRead', 'read'),
    collection('cUnderRead', 'inherit', 'cRead'),
    collection('cAdminUnderPrivate', 'admin', 'cPrivate'),
    collection('cO2', 'inherit', null, 'o2'),
  ]);
  const space = (id: string, defaultLevel: string | null, over: Partial<typeof spaces.$inferInsert> = {}) => ({
    id,
    organizationId: 'o1',
    title: id,
    emoji: '',
    visibility: 'private',
    editMode: 'live',
    mergeRules: {},
    revisionId: `r-${id}`,
    defaultLevel,
    position: 'a',
    createdAt: t0,
    updatedAt: t0,
    ...over,
  });
  await db.insert(spaces).values([
    space('sInherit', 'inherit'),
    space('sPrivate', null),
    space('sRead', 'read'),
    space('sAdmin', 'admin'),
    space('sInPrivate', 'inherit', { parentId: 'cPrivate', visibility: 'in-collection' }),
    space('sDeepInPrivate', 'inherit', { parentId: 'cDeepUnderPrivate', visibility: 'in-collection' }),
    space('sNotInPrivate', 'inherit', { parentId: 'cPrivate', visibility: 'private' }),
    space('sInRead', 'inherit', { parentId: 'cUnderRead', visibility: 'in-collection' }),
    space('sDeleted', 'inherit', { deletedAt: t0 }),
    space('sCounted', 'inherit'),
    space('sO2', 'inherit', { organizationId: 'o2' }),
  ]);
  const grant = (id: string, on: { spaceId?: string; collectionId?: string; siteId?: string }, to: { userId?: string; teamId?: string }, role: string, organizationId = 'o1') => ({
    id,
    organizationId,
    ...on,
    ...to,
    role,
    createdAt: t0,
  });
  await db.insert(sites).values([
    { id: 'site1', organizationId: 'o1', type: 'basic', title: 'site1', visibility: 'public', published: true, shareKey: 'k1', createdAt: t0, updatedAt: t0 },
    { id: 'site2', organizationId: 'o1', type: 'basic', title: 'site2', visibility: 'public', published: false, shareKey: 'k2', createdAt: t0, updatedAt: t0 },
    { id: 'siteO2', organizationId: 'o2', type: 'basic', title: 'siteO2', visibility: 'public', published: true, shareKey: 'k3', createdAt: t0, updatedAt: t0 },
  ]);
  await db.insert(contentGrants).values([
    grant('g1', { collectionId: 'cPrivate' }, { userId: 'reader' }, 'review'),
    grant('g2', { collectionId: 'cPrivate' }, { teamId: 'T' }, 'edit'),
    grant('g3', { collectionId: 'cUnderPrivate' }, { userId: 'guest' }, 'comment'),
    grant('g4', { spaceId: 'sPrivate' }, { userId: 'guest' }, 'read'),
    grant('g5', { spaceId: 'sPrivate' }, { teamId: 'T' }, 'edit'),
    grant('g6', { spaceId: 'sPrivate' }, { userId: 'gone' }, 'admin'),
    grant('g7', { spaceId: 'sRead' }, { teamId: 'G' }, 'create'),
    grant('g8', { spaceId: 'sPrivate' }, { userId: 'teamed' }, 'comment'),
    grant('g9', { siteId: 'site1' }, { userId: 'reader' }, 'admin'),
    grant('g10', { siteId: 'site1' }, { teamId: 'T' }, 'edit'),
    grant('g11', { siteId: 'site2' }, { userId: 'guest' }, 'read'),
    grant('g12', { siteId: 'siteO2' }, { userId: 'both' }, 'admin', 'o2'),
    grant('g13', { siteId: 'site1' }, { userId: 'editor' }, 'read'),
    grant('g14', { collectionId: 'cRead' }, { teamId: 'G' }, 'edit'),
  ]);
  // sCounted: two open change requests, one draft, one merged; two open comments and a resolved one; on a
  // published site (sInherit is only on an unpublished one).
  const cr = (id: string, number: number, status: string) => ({
    id,
    organizationId: 'o1',
    spaceId: 'sCounted',
    number,
    status,
    createdBy: 'editor',
    revisionId: 'r',
    revisionInitial: 'r',
    createdAt: t0,
    updatedAt: t0,
  });
  await db.insert(changeRequests).values([cr('cr1', 1, 'open'), cr('cr2', 2, 'open'), cr('cr3', 3, 'draft'), cr('cr4', 4, 'merged')]);
  const comment = (id: string, spaceId: string, status: string) => ({ id, spaceId, postedBy: 'editor', postedAt: t0, body: '', revisionId: 'r', status });
  await db.insert(comments).values([comment('m1', 'sCounted', 'open'), comment('m2', 'sCounted', 'open'), comment('m3', 'sCounted', 'resolved'), comment('m4', 'sInherit', 'open')]);
  await db.insert(siteSpaces).values([
    { id: 'ss1', siteId: 'site1', spaceId: 'sCounted', path: 'a', position: 'a', createdAt: t0, updatedAt: t0 },
    { id: 'ss2', siteId: 'site2', spaceId: 'sInherit', path: 'a', position: 'a', createdAt: t0, updatedAt: t0 },
  ]);
}, 60_000);
afterAll(async () => database.close());

const ctxOf = (userId: string) => ({ db: database.db, caller: { userId } }) as unknown as Ctx;

/** The decision as data: the grant (or noContent), or the refusal's status and message. */
async function decide(userId: string, rule: Access, params: Record<string, string>, options?: AccessOptions) {
  try {
    return await checkAccess(ctxOf(userId), rule, params, options);
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, message: err.message };
    throw err;
  }
}
/** The caller's role on the space or collection, or the refusal. */
async function roleOn(userId: string, rule: Access, params: Record<string, string>) {
  const decision = await decide(userId, rule, params);
  return 'grant' in decision ? (decision.grant as { role: string | null }).role : decision;
}
const space = (role: Role, more: object = {}) => ({ to: 'space', role, ...more }) as Access;
const collection = (role: Role, more: object = {}) =>
  ({ to: 'collection', role, ...more }) as Access;
const notFound = (what: string) => ({ status: 404, message: `${what} not found` });

describe('checkAccess: any caller', () => {
  it('passes every authenticated caller with no grant, reading nothing', async () => {
    expect(await decide('outsider', { to: 'caller' }, {})).toStrictEqual({ grant: undefined });
    expect(await decide('nobody-at-all', { to: 'caller' }, { organizationId: 'o1' })).toStrictEqual({ grant: undefined });
  });
});

describe('checkAccess: the organization', () => {
  const org = async (userId: string, role: Role | 'guest', params: Record<string, string> = { organizationId: 'o1' }) =>
    decide(userId, { to: 'organization', role }, params);

  it('grants a member with the role asked or a stronger one, with the organization and their role', async () => {
    const decision = await org('admin', 'admin');
    expect(decision).toEqual({ grant: { organization: expect.objectContaining({ id: 'o1', title: 'o1' }), role: 'admin' } });
    expect(Object.keys((decision as { grant: object }).grant)).toEqual(['organization', 'role']);
    expect(await org('creator', 'create')).toMatchObject({ grant: { role: 'create' } });
    expect(await org('creator', 'edit')).toMatchObject({ grant: { role: 'create' } });
    expect(await org('reader', 'read')).toMatchObject({ grant: { role: 'read' } });
  });

  it('refuses a weaker role with 403 naming the role needed and the one held', async () => {
    expect(await org('creator', 'admin')).toEqual({ status: 403, message: 'You need the admin role in this organization (you have create)' });
    expect(await org('reader', 'edit')).toEqual({ status: 403, message: 'You need the edit role in this organization (you have read)' });
  });

  it('lets a guest through only where guests are allowed', async () => {
    expect(await org('guest', 'guest')).toMatchObject({ grant: { organization: { id: 'o1' }, role: null } });
    expect(await org('guest', 'read')).toEqual({ status: 403, message: 'You need the read role in this organization (you have guest access)' });
    expect(await org('reader', 'guest')).toMatchObject({ grant: { role: 'read' } });
  });

  it('answers 404 to a disabled member, a member of another organization, and for an organization that does not exist', async () => {
    expect(await org('gone', 'guest')).toEqual(notFound('Organization o1'));
    expect(await org('outsider', 'guest')).toEqual(notFound('Organization o1'));
    expect(await org('admin', 'guest', { organizationId: 'o9' })).toEqual(notFound('Organization o9'));
    expect(await org('outsider', 'admin', { organizationId: 'o2' })).toMatchObject({ grant: { organization: { id: 'o2' }, role: 'admin' } });
  });

  it('requireOrganizationGrant applies the same rule to another organization (a transfer target)', async () => {
    expect(await requireOrganizationGrant(ctxOf('both'), 'o2', 'admin')).toMatchObject({ organization: { id: 'o2' }, role: 'admin' });
    await expect(requireOrganizationGrant(ctxOf('both'), 'o1', 'create')).rejects.toMatchObject({
      status: 403,
      message: 'You need the create role in this organization (you have read)',
    });
    await expect(requireOrganizationGrant(ctxOf('reader'), 'o2', 'guest')).rejects.toMatchObject(notFound('Organization o2'));
    // A site id in the request does not reach it: only the organization role counts.
    expect(await requireOrganizationGrant(ctxOf('guest'), 'o1', 'guest')).toEqual({ organization: expect.objectContaining({ id: 'o1' }), role: null });
  });
});

describe('checkAccess: a read attached to the organization grant', () => {
  // What an operation reads beside its grant (server/auth/attached-read.ts): the organization row `o` and a parameter of its own.
  const echo: AccessOptions = {
    spaceCounters: false,
    attach: { name: 'echo', sql: (first) => `SELECT o.title AS echo_title, $${first}::text AS echo_param`, params: ['asked'] },
  };

  it('comes back with the grant, which decides as it does without it', async () => {
    const plain = await decide('reader', { to: 'organization', role: 'read' }, { organizationId: 'o1' }, echo);
    expect(plain).toMatchObject({ grant: { organization: { id: 'o1' }, role: 'read', attached: { echo_title: 'o1', echo_param: 'asked' } } });
    const onSite = await decide('reader', { to: 'organization', role: 'admin' }, { organizationId: 'o1', siteId: 'site1' }, echo);
    expect(onSite).toMatchObject({ grant: { role: 'read', siteRole: 'admin', attached: { echo_title: 'o1', echo_param: 'asked' } } });
  });

  it('changes no refusal', async () => {
    expect(await decide('reader', { to: 'organization', role: 'edit' }, { organizationId: 'o1' }, echo)).toEqual({
      status: 403,
      message: 'You need the edit role in this organization (you have read)',
    });
    expect(await decide('reader', { to: 'organization', role: 'admin' }, { organizationId: 'o1', siteId: 'site2' }, echo)).toEqual({
      status: 403,
      message: 'You need the admin role on this site (you have read)',
    });
    expect(await decide('outsider', { to: 'organization', role: 'guest' }, { organizationId: 'o1' }, echo)).toEqual(notFound('Organization o1'));
    expect(await decide('admin', { to: 'organization', role: 'guest' }, { organizationId: 'o9', siteId: 'site1' }, echo)).toEqual(notFound('Organization o9'));
  });
});

describe('a refusal of a caller the grant found: the row of its statement comes with it', () => {
  // For an operation whose answer to a refused caller depends on what it read (ui-render.store.ts).
  const echo = (row: string): AccessOptions => ({
    spaceCounters: false,
    attach: { name: `echo_${row}`, sql: (first) => `SELECT ${row}.id AS echo_id, $${first}::text AS echo_param`, params: ['asked'] },
  });
  const refusal = async (userId: string, rule: Access, params: Record<string, string>, options: AccessOptions) => {
    try {
      await checkAccess(ctxOf(userId), rule, params, options);
    } catch (err) {
      return err;
    }
    throw new Error('not refused');
  };

  it('on a space and on the organization, with the status and message of any refusal; not written out with it', async () => {
    const onSpace = await refusal('reader', space('admin'), { spaceId: 'sRead' }, echo('s'));
    expect(onSpace).toBeInstanceOf(RefusedGrant);
    expect(onSpace).toMatchObject({ status: 403, message: 'You need the admin role on this space (you have read)', attached: { echo_id: 'sRead', echo_param: 'asked' } });
    expect(Object.keys(onSpace as object)).not.toContain('attached');
    const onOrganization = await refusal('reader', { to: 'organization', role: 'edit' }, { organizationId: 'o1' }, echo('o'));
    expect(onOrganization).toMatchObject({ status: 403, message: 'You need the edit role in this organization (you have read)', attached: { echo_id: 'o1', echo_param: 'asked' } });
    // Nothing found, nothing carried: a 404.
    expect(await refusal('outsider', space('read'), { spaceId: 'sRead' }, echo('s'))).not.toBeInstanceOf(RefusedGrant);
  });
});

describe('siteOrganizationGrant: the organization of a site the operation names', () => {
  // Decides as the organization's own rule would (checkAccess on it), with the read attached whatever the caller,
  // and its write made exactly where that rule lets them through.
  const marked: AttachedRead = {
    name: 'site_mark',
    sql: (first) => `SELECT o.id AS echo_id, $${first}::text AS echo_param`,
    params: ['asked'],
    write: { name: 'site_mark', ctes: (_first, allowed) => `mark AS (SELECT 1 FROM g WHERE ${allowed})`, column: '(SELECT count(*) FROM mark)::int AS mark_written', params: [] },
  };
  const callers = [...o1Members.map(([id]) => id), 'outsider'];

  it('for every caller, role and site: the same decision as the organization\'s, the write only where it grants', async () => {
    let allowed = 0;
    for (const userId of callers) {
      for (const role of ['guest', 'read', 'edit', 'admin'] as (Role | 'guest')[]) {
        for (const [siteId, organizationId] of [['site1', 'o1'], ['siteO2', 'o2']]) {
          const expected = await decide(userId, { to: 'organization', role }, { organizationId });
          const found = await siteOrganizationGrant(ctxOf(userId), siteId, role, marked);
          expect(found.attached).toMatchObject({ echo_id: organizationId, echo_param: 'asked', mark_written: 'grant' in expected ? 1 : 0 });
          let decided;
          try {
            const grant = found.grant!();
            decided = { grant: { organization: grant.organization, role: grant.role } };
          } catch (err) {
            decided = { status: (err as ApiError).status, message: (err as ApiError).message };
          }
          const plain = 'grant' in expected ? { grant: { organization: (expected.grant as { organization: unknown }).organization, role: (expected.grant as { role: unknown }).role } } : expected;
          expect({ userId, role, siteId, decided }).toEqual({ userId, role, siteId, decided: plain });
          if ('grant' in expected) allowed++;
        }
      }
    }
    expect(allowed).toBeGreaterThan(10);
    expect(allowed).toBeLessThan(callers.length * 4 * 2);
  });

  it('gives no grant for a site that does not exist, and its read all the same, writing nothing', async () => {
    const found = await siteOrganizationGrant(ctxOf('admin'), 'site_none', 'guest', marked);
    expect(found.grant).toBeUndefined();
    expect(found.attached).toMatchObject({ echo_id: null, echo_param: 'asked', mark_written: 0 });
  });
});

describe('checkAccess: a read attached to the collection grant', () => {
  // The collection row `c` and a parameter of the read's own.
  const echo: AccessOptions = {
    spaceCounters: false,
    attach: { name: 'echo', sql: (first) => `SELECT c.title AS echo_title, $${first}::text AS echo_param`, params: ['asked'] },
  };

  it('comes back with the grant, which decides as it does without it', async () => {
    expect(await decide('creator', collection('read'), { collectionId: 'cRead' }, echo)).toMatchObject({
      grant: { row: { id: 'cRead' }, role: 'read', attached: { echo_title: 'cRead', echo_param: 'asked' } },
    });
    expect(await decide('creator', collection('edit'), { collectionId: 'cUnderRead' }, echo)).toEqual({
      status: 403,
      message: 'You need the edit role on this collection (you have read)',
    });
    expect(await decide('guest', collection('read'), { collectionId: 'cTop' }, echo)).toEqual(notFound('Collection cTop'));
  });

  it('is absent when nothing is attached', async () => {
    const plain = await decide('creator', collection('read'), { collectionId: 'cRead' });
    expect(plain).toMatchObject({ grant: { row: { id: 'cRead' }, role: 'read' } });
    expect('grant' in plain && plain.grant && 'attached' in plain.grant).toBe(false);
  });
});

describe('checkAccess: a site of the organization ({siteId} in the path)', () => {
  const site = async (userId: string, role: Role | 'guest', siteId: string, organizationId = 'o1') =>
    decide(userId, { to: 'organization', role }, { organizationId, siteId });

  it('raises the organization role by a grant on that site, and on no other', async () => {
    expect(await site('reader', 'admin', 'site1')).toEqual({ grant: { organization: expect.objectContaining({ id: 'o1' }), role: 'read', siteRole: 'admin' } });
    expect(await site('reader', 'admin', 'site2')).toEqual({ status: 403, message: 'You need the admin role on this site (you have read)' });
    expect(await site('reader', 'read', 'site2')).toMatchObject({ grant: { role: 'read', siteRole: 'read' } });
  });

  it('raises it by the grants of the caller’s teams, and never lowers it', async () => {
    expect(await site('teamed', 'edit', 'site1')).toMatchObject({ grant: { role: 'read', siteRole: 'edit' } });
    expect(await site('teamed', 'review', 'site1')).toEqual({ status: 403, message: 'You need the review role on this site (you have edit)' });
    // editor was given read on site1: they keep their organization's edit.
    expect(await site('editor', 'edit', 'site1')).toMatchObject({ grant: { role: 'edit', siteRole: 'edit' } });
  });

  it('keeps an admin admin on every site', async () => {
    expect(await site('admin', 'admin', 'site2')).toMatchObject({ grant: { role: 'admin', siteRole: 'admin' } });
  });

  it('gives a guest the site they were given and nothing on the others', async () => {
    expect(await site('guest', 'read', 'site2')).toMatchObject({ grant: { role: null, siteRole: 'read' } });
    expect(await site('guest', 'read', 'site1')).toEqual({ status: 403, message: 'You need the read role on this site (you have guest access)' });
    expect(await site('guest', 'guest', 'site1')).toEqual({ grant: { organization: expect.objectContaining({ id: 'o1' }), role: null, siteRole: null } });
  });

  it('counts no grant on a site of another organization, and answers 404 to non-members', async () => {
    // `both` administers siteO2 through o2; asked through o1 (where they read) that grant gives nothing.
    expect(await site('both', 'read', 'siteO2')).toMatchObject({ grant: { role: 'read', siteRole: 'read' } });
    expect(await site('both', 'admin', 'siteO2')).toEqual({ status: 403, message: 'You need the admin role on this site (you have read)' });
    expect(await site('both', 'admin', 'siteO2', 'o2')).toMatchObject({ grant: { role: 'admin', siteRole: 'admin' } });
    expect(await site('outsider', 'guest', 'site1')).toEqual(notFound('Organization o1'));
    expect(await site('gone', 'guest', 'site1')).toEqual(notFound('Organization o1'));
    expect(await site('admin', 'guest', 'site1', 'o9')).toEqual(notFound('Organization o9'));
  });
});

describe('checkAccess: a collection', () => {
  const on = (userId: string, collectionId: string, role: Parameters<typeof collection>[0] = 'read') => roleOn(userId, collection(role), { collectionId });

  it('gives members the level of a top-level collection that inherits: their organization role', async () => {
    expect(await on('creator', 'cTop')).toBe('create');
    expect(await on('editor', 'cTop')).toBe('edit');
    expect(await on('reader', 'cTop')).toBe('read');
    expect(await on('admin', 'cTop')).toBe('admin');
  });

  it('hides a private collection (defaultLevel null) from members without a grant: 404, or 204 for an idempotent delete', async () => {
    expect(await on('editor', 'cPrivate')).toEqual(notFound('Collection cPrivate'));
    expect(await decide('editor', collection('admin', { missing: 'no-content' }), { collectionId: 'cPrivate' })).toEqual({ noContent: true });
    expect(await decide('editor', collection('admin', { missing: 'no-content' }), { collectionId: 'nope' })).toEqual({ noContent: true });
    expect(await on('admin', 'cPrivate')).toBe('admin');
  });

  it('gives the caller’s own grant and their team’s', async () => {
    expect(await on('reader', 'cPrivate')).toBe('review');
    expect(await on('teamed', 'cPrivate')).toBe('edit');
  });

  it('refuses a role too low with 403 naming both roles', async () => {
    expect(await decide('reader', collection('admin'), { collectionId: 'cPrivate' })).toEqual({
      status: 403,
      message: 'You need the admin role on this collection (you have review)',
    });
    // A refusal is a refusal even for an idempotent delete.
    expect(await decide('reader', collection('create', { missing: 'no-content' }), { collectionId: 'cPrivate' })).toEqual({
      status: 403,
      message: 'You need the create role on this collection (you have review)',
    });
  });

  it('hands the handler the row and the ingredients of the role', async () => {
    const decision = await decide('reader', collection('review'), { collectionId: 'cUnderPrivate' });
    expect(decision).toEqual({
      grant: {
        row: expect.objectContaining({ id: 'cUnderPrivate', parentId: 'cPrivate', defaultLevel: 'inherit' }),
        member: true,
        orgRole: 'read',
        granted: null,
        inherited: { level: null, granted: 'review' },
        role: 'review',
      },
    });
  });

  it('passes a private parent’s nothing and its grants down the chain of collections that inherit', async () => {
    expect(await on('editor', 'cUnderPrivate')).toEqual(notFound('Collection cUnderPrivate'));
    expect(await on('editor', 'cDeepUnderPrivate')).toEqual(notFound('Collection cDeepUnderPrivate'));
    expect(await on('reader', 'cDeepUnderPrivate')).toBe('review');
    expect(await on('teamed', 'cDeepUnderPrivate')).toBe('edit');
    // A collection with its own level under a private one gives it to every member.
    expect(await on('editor', 'cAdminUnderPrivate')).toBe('admin');
  });

  it('applies a level that lowers the organization role, to the collection and those inheriting it', async () => {
    expect(await on('creator', 'cRead')).toBe('read');
    expect(await on('creator', 'cUnderRead')).toBe('read');
    expect(await decide('creator', collection('edit'), { collectionId: 'cUnderRead' })).toEqual({
      status: 403,
      message: 'You need the edit role on this collection (you have read)',
    });
  });

  it('gives a guest only what they or their teams were given, here and below', async () => {
    expect(await on('guest', 'cTop')).toEqual(notFound('Collection cTop'));
    expect(await on('guest', 'cRead')).toEqual(notFound('Collection cRead'));
    expect(await on('guest', 'cPrivate')).toEqual(notFound('Collection cPrivate'));
    expect(await on('guest', 'cUnderPrivate')).toBe('comment');
    expect(await on('guest', 'cDeepUnderPrivate')).toBe('comment');
    expect(await on('teamedGuest', 'cRead')).toBe('edit');
    expect(await on('teamedGuest', 'cUnderRead')).toBe('edit');
  });

  it('answers 404 to non-members and disabled members, and for a collection that does not exist', async () => {
    expect(await on('outsider', 'cTop')).toEqual(notFound('Collection cTop'));
    expect(await on('gone', 'cTop')).toEqual(notFound('Collection cTop'));
    expect(await on('admin', 'cO2')).toEqual(notFound('Collection cO2'));
    expect(await on('admin', 'nope')).toEqual(notFound('Collection nope'));
  });

  it('findCollectionGrant finds a visible collection, undefined otherwise', async () => {
    expect(await findCollectionGrant(ctxOf('reader'), 'cPrivate')).toMatchObject({ row: { id: 'cPrivate' }, role: 'review', granted: 'review' });
    expect(await findCollectionGrant(ctxOf('editor'), 'cPrivate')).toBeUndefined();
    expect(await findCollectionGrant(ctxOf('editor'), 'nope')).toBeUndefined();
  });

  it('roleOfUserOnCollection answers another user’s role by the same rule, null when they cannot see it', async () => {
    const asAdmin = ctxOf('admin');
    expect(await roleOfUserOnCollection(asAdmin, 'cPrivate', 'teamed')).toBe('edit');
    expect(await roleOfUserOnCollection(asAdmin, 'cUnderRead', 'creator')).toBe('read');
    expect(await roleOfUserOnCollection(asAdmin, 'cPrivate', 'editor')).toBeNull();
    expect(await roleOfUserOnCollection(asAdmin, 'cTop', 'outsider')).toBeNull();
    expect(await roleOfUserOnCollection(asAdmin, 'nope', 'editor')).toBeNull();
  });
});

describe('checkAccess: a space', () => {
  const on = (userId: string, spaceId: string, role: Parameters<typeof space>[0] = 'read') => roleOn(userId, space(role), { spaceId });

  it('gives members their organization role on a space that inherits at the top', async () => {
    expect(await on('creator', 'sInherit')).toBe('create');
    expect(await on('reader', 'sInherit')).toBe('read');
    expect(await on('admin', 'sInherit')).toBe('admin');
  });

  it('gives members the space’s own level, raising or lowering their role; admins stay admin', async () => {
    expect(await on('creator', 'sRead')).toBe('read');
    expect(await on('reader', 'sAdmin')).toBe('admin');
    expect(await on('admin', 'sRead')).toBe('admin');
    expect(await decide('creator', space('edit'), { spaceId: 'sRead' })).toEqual({ status: 403, message: 'You need the edit role on this space (you have read)' });
  });

  it('hides a private space from members without a grant: 404, or 204 for an idempotent delete', async () => {
    expect(await on('editor', 'sPrivate')).toEqual(notFound('Space sPrivate'));
    expect(await decide('editor', space('admin', { missing: 'no-content' }), { spaceId: 'sPrivate' })).toEqual({ noContent: true });
    expect(await decide('editor', space('admin', { missing: 'no-content' }), { spaceId: 'nope' })).toEqual({ noContent: true });
    expect(await decide('guest', space('admin', { missing: 'no-content' }), { spaceId: 'sPrivate' })).toEqual({
      status: 403,
      message: 'You need the admin role on this space (you have read)',
    });
  });

  it('gives the strongest of the caller’s grant and their teams’', async () => {
    expect(await on('guest', 'sPrivate')).toBe('read');
    // teamed: comment of their own, edit through team T.
    expect(await on('teamed', 'sPrivate')).toBe('edit');
    expect(await decide('guest', space('comment'), { spaceId: 'sPrivate' })).toEqual({ status: 403, message: 'You need the comment role on this space (you have read)' });
    // A team's grant raises a level that lowered: sRead gives read, team G gives create.
    expect(await on('teamedGuest', 'sRead')).toBe('create');
  });

  it('lets an in-collection space inherit its collections’ level and grants, all the way up', async () => {
    expect(await on('editor', 'sInPrivate')).toEqual(notFound('Space sInPrivate'));
    expect(await on('reader', 'sInPrivate')).toBe('review');
    expect(await on('teamed', 'sInPrivate')).toBe('edit');
    expect(await on('reader', 'sDeepInPrivate')).toBe('review');
    expect(await on('guest', 'sDeepInPrivate')).toBe('comment');
    expect(await on('editor', 'sDeepInPrivate')).toEqual(notFound('Space sDeepInPrivate'));
    expect(await on('creator', 'sInRead')).toBe('read');
    expect(await on('teamedGuest', 'sInRead')).toBe('edit');
  });

  it('gives a space of another visibility inside a collection neither its level nor its grants: inherit is the organization role', async () => {
    expect(await on('editor', 'sNotInPrivate')).toBe('edit');
    expect(await on('reader', 'sNotInPrivate')).toBe('read');
    expect(await on('guest', 'sNotInPrivate')).toEqual(notFound('Space sNotInPrivate'));
    const decision = await decide('reader', space('read'), { spaceId: 'sNotInPrivate' }, { spaceCounters: false });
    expect(decision).toMatchObject({ grant: { granted: null, inherited: undefined, role: 'read' } });
  });

  it('hands the handler the row and the ingredients of the role; for an admin no grant is read', async () => {
    expect(await decide('reader', space('read'), { spaceId: 'sInPrivate' }, { spaceCounters: false })).toEqual({
      grant: {
        row: expect.objectContaining({ id: 'sInPrivate', parentId: 'cPrivate', visibility: 'in-collection' }),
        member: true,
        orgRole: 'read',
        granted: null,
        inherited: { level: null, granted: 'review' },
        counts: undefined,
        publishedOn: undefined,
        role: 'review',
      },
    });
    expect(await decide('teamed', space('read'), { spaceId: 'sPrivate' }, { spaceCounters: false })).toMatchObject({
      grant: { orgRole: 'read', granted: 'edit', inherited: undefined },
    });
    expect(await decide('admin', space('read'), { spaceId: 'sInPrivate' }, { spaceCounters: false })).toMatchObject({
      grant: { orgRole: 'admin', granted: null, inherited: undefined, role: 'admin' },
    });
  });

  it('reads the counters a Space shows with it, unless asked not to', async () => {
    const counted = await decide('reader', space('read'), { spaceId: 'sCounted' });
    expect(counted).toMatchObject({
      grant: { counts: { changeRequests: 4, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 2 }, role: 'read' },
    });
    // With where published sites publish it: site1 (published) as the site space `a`, in o1 (no hostname).
    expect(counted).toMatchObject({
      grant: {
        publishedOn: [
          {
            site: { id: 'site1', basename: null, hostname: null, proxy: null, visibility: 'public', shareKey: 'k1', published: true },
            organization: { id: 'o1', hostname: null },
            path: 'a',
            sectionPath: null,
          },
        ],
      },
    });
    // Only on an unpublished site: nowhere.
    expect(await decide('reader', space('read'), { spaceId: 'sInherit' }, { spaceCounters: true })).toMatchObject({
      grant: { counts: { changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, comments: 1 }, publishedOn: [] },
    });
    // Read alone, a space grant comes with its counters unless told otherwise.
    expect(await readSpaceGrant(database.db, 'sCounted', 'reader')).toMatchObject({ counts: { changeRequests: 4, comments: 2 }, publishedOn: [{ site: { id: 'site1' }, path: 'a' }] });
    const plain = await decide('reader', space('read'), { spaceId: 'sCounted' }, { spaceCounters: false });
    expect(plain).toMatchObject({ grant: { counts: undefined, publishedOn: undefined, role: 'read' } });
  });

  it('finds a deleted space only for the operations on the trash', async () => {
    expect(await on('admin', 'sDeleted')).toEqual(notFound('Space sDeleted'));
    expect(await decide('admin', space('admin', { missing: 'no-content' }), { spaceId: 'sDeleted' })).toEqual({ noContent: true });
    expect(await decide('editor', space('edit', { deleted: true }), { spaceId: 'sDeleted' })).toMatchObject({
      grant: { row: { id: 'sDeleted', deletedAt: t0 }, role: 'edit' },
    });
    expect(await decide('editor', space('admin', { deleted: true }), { spaceId: 'sDeleted' })).toEqual({
      status: 403,
      message: 'You need the admin role on this space (you have edit)',
    });
    // The trash of a live space is the space.
    expect(await decide('editor', space('edit', { deleted: true }), { spaceId: 'sInherit' })).toMatchObject({ grant: { role: 'edit' } });
  });

  it('answers 404 to non-members and disabled members (their grants count for nothing), and for a space that does not exist', async () => {
    expect(await on('gone', 'sPrivate')).toEqual(notFound('Space sPrivate'));
    expect(await on('gone', 'sInherit')).toEqual(notFound('Space sInherit'));
    expect(await on('outsider', 'sInherit')).toEqual(notFound('Space sInherit'));
    expect(await on('admin', 'sO2')).toEqual(notFound('Space sO2'));
    expect(await on('outsider', 'sO2')).toBe('admin');
    expect(await on('admin', 'nope')).toEqual(notFound('Space nope'));
  });

  it('roleOfUserOnSpace answers another user’s role by the same rule, null when they cannot see it or it is deleted', async () => {
    const asAdmin = ctxOf('admin');
    expect(await roleOfUserOnSpace(asAdmin, 'sPrivate', 'teamed')).toBe('edit');
    expect(await roleOfUserOnSpace(asAdmin, 'sInPrivate', 'reader')).toBe('review');
    expect(await roleOfUserOnSpace(asAdmin, 'sPrivate', 'editor')).toBeNull();
    expect(await roleOfUserOnSpace(asAdmin, 'sPrivate', 'gone')).toBeNull();
    expect(await roleOfUserOnSpace(asAdmin, 'sDeleted', 'editor')).toBeNull();
    expect(await roleOfUserOnSpace(asAdmin, 'sInherit', 'editor')).toBe('edit');
    expect(await roleOfUserOnSpace(asAdmin, 'nope', 'editor')).toBeNull();
  });
});

describe('the lists’ rule in SQL (spaceRoleOf, collectionRoleOf)', () => {
  // Every enabled member of o1 with their organization role, as the lists pass it.
  const listed = o1Members.filter(([, , disabled]) => !disabled);

  it('gives each member on each live space the role the access check gives', async () => {
    for (const [userId, orgRole] of listed) {
      const rows = await database.db
        .select({ id: spaces.id, role: spaceRoleOf(userId, orgRole) })
        .from(spaces)
        .where(and(eq(spaces.organizationId, 'o1'), isNull(spaces.deletedAt)))
        .orderBy(spaces.id);
      expect(rows.length).toBe(9);
      for (const { id, role } of rows) expect([userId, id, role]).toEqual([userId, id, await roleOfUserOnSpace(ctxOf('admin'), id, userId)]);
    }
  });

  it('gives each member on each collection the role the access check gives', async () => {
    for (const [userId, orgRole] of listed) {
      const rows = await database.db
        .select({ id: collections.id, role: collectionRoleOf(userId, orgRole) })
        .from(collections)
        .where(eq(collections.organizationId, 'o1'))
        .orderBy(collections.id);
      expect(rows.length).toBe(7);
      for (const { id, role } of rows) expect([userId, id, role]).toEqual([userId, id, await roleOfUserOnCollection(ctxOf('admin'), id, userId)]);
    }
  });

  it('states the expected roles of a few members outright', async () => {
    const rolesOf = async (userId: string, orgRole: string | null) =>
      Object.fromEntries(
        (await database.db.select({ id: collections.id, role: collectionRoleOf(userId, orgRole) }).from(collections).where(eq(collections.organizationId, 'o1'))).map(
          (r) => [r.id, r.role],
        ),
      );
    expect(await rolesOf('admin', 'admin')).toEqual({
      cTop: 'admin',
      cPrivate: 'admin',
      cUnderPrivate: 'admin',
      cDeepUnderPrivate: 'admin',
      cRead: 'admin',
      cUnderRead: 'admin',
      cAdminUnderPrivate: 'admin',
    });
    expect(await rolesOf('guest', null)).toEqual({
      cTop: null,
      cPrivate: null,
      cUnderPrivate: 'comment',
      cDeepUnderPrivate: 'comment',
      cRead: null,
      cUnderRead: null,
      // A sibling of cUnderPrivate, where the guest's grant is: theirs does not reach it.
      cAdminUnderPrivate: null,
    });
    expect(await rolesOf('teamed', 'read')).toEqual({
      cTop: 'read',
      cPrivate: 'edit',
      cUnderPrivate: 'edit',
      cDeepUnderPrivate: 'edit',
      cRead: 'read',
      cUnderRead: 'read',
      cAdminUnderPrivate: 'admin',
    });
  });
});

describe('a write attached to the grant: made exactly where the rule lets the caller through', () => {
  // What an operation writes in its grant's statement (db/attached-select.ts AttachedWrite) is made only where
  // the rule's SQL (grants.ts spaceRuleSql, organizationRuleSql) holds: here a CTE over the grant's row `g`
  // that counts whether it did, against checkAccess's decision in code for the same caller, rule and resource.
  const marked: AttachedRead = {
    name: 'mark',
    sql: () => 'SELECT 1 AS mark_read',
    params: [],
    write: { name: 'mark', ctes: (_first, allowed) => `mark AS (SELECT 1 FROM g WHERE ${allowed})`, column: '(SELECT count(*) FROM mark)::int AS mark_written', params: [] },
  };
  const written = (raw: { attached?: Record<string, unknown> } | undefined) => raw?.attached?.mark_written === 1;
  const callers = [...o1Members.map(([id]) => id), 'outsider'];
  const required: Role[] = ['read', 'comment', 'edit', 'admin'];

  it('on a space, for every caller, space and role, with and without the trash', async () => {
    const spaceIds = ['sInherit', 'sPrivate', 'sRead', 'sAdmin', 'sInPrivate', 'sDeepInPrivate', 'sNotInPrivate', 'sInRead', 'sDeleted', 'sO2'];
    let allowed = 0;
    for (const userId of callers) {
      for (const spaceId of spaceIds) {
        for (const role of required) {
          for (const deleted of spaceId === 'sDeleted' || spaceId === 'sRead' ? [false, true] : [false]) {
            const decision = await decide(userId, space(role, { deleted }), { spaceId });
            const raw = await readSpaceGrant(database.db, spaceId, userId, false, marked, { role, deleted });
            expect({ userId, spaceId, role, deleted, written: written(raw) }).toEqual({ userId, spaceId, role, deleted, written: 'grant' in decision });
            if ('grant' in decision) allowed++;
          }
        }
      }
    }
    // The world lets some through and refuses others (both outcomes are checked).
    expect(allowed).toBeGreaterThan(20);
    expect(allowed).toBeLessThan(callers.length * spaceIds.length * required.length);
  });

  it('on the organization, and on one of its sites, for every caller and role', async () => {
    let allowed = 0;
    for (const userId of callers) {
      for (const role of ['guest', ...required] as (Role | 'guest')[]) {
        for (const siteId of [undefined, 'site1', 'site2']) {
          const decision = await decide(userId, { to: 'organization', role }, { organizationId: 'o1', ...(siteId && { siteId }) });
          const raw = siteId === undefined ? await readOrganizationGrant(database.db, 'o1', userId, marked, role) : await readOrganizationSiteGrant(database.db, 'o1', userId, siteId, marked, role);
          expect({ userId, role, siteId, written: written(raw) }).toEqual({ userId, role, siteId, written: 'grant' in decision });
          if ('grant' in decision) allowed++;
        }
      }
    }
    expect(allowed).toBeGreaterThan(20);
    expect(allowed).toBeLessThan(callers.length * 5 * 3);
  });
});
