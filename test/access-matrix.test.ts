// The access matrix: every implemented operation, called by every kind of caller, answers what its
// declared access rule (contract/access.ts) says — 401 without a valid token, 404 for what the caller
// cannot see (204 for an idempotent delete), 403 for too low a role, a success otherwise. New operations
// join it by being declared and implemented; nothing here names them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../contract/access.js';
import { contractOperations, downloadOperations } from '../contract/index.js';
import type { Operation } from '../contract/operation.js';
import { handlers } from '../server/handlers.js';
import { atLeast, type Role } from '../server/auth/roles.js';
import { isImplemented } from '../server/http/not-implemented.js';
import { send, type ApiResponse } from './support/api.js';
import { useHarness } from './support/harness.js';
import { matrixFixtures, type MatrixWorld } from './support/matrix/index.js';
import {
  expectedForGrant,
  grantCallerKinds,
  grantFor,
  grantKindApplies,
  isPrivateKind,
  makeGrantCallers,
  makePrivate,
  type GrantCallerKind,
  type GrantCallers,
} from './support/matrix/grants.js';

const h = useHarness();

const roles: Role[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];
type CallerKind = 'no token' | 'bad token' | 'outsider' | 'guest' | Role | GrantCallerKind;
const callerKinds: CallerKind[] = ['no token', 'bad token', 'outsider', 'guest', ...roles];

/** The status the declaration promises to a caller: a number, or 'success' for any 2xx. */
function expected(rule: Access, caller: Exclude<CallerKind, GrantCallerKind>): number | 'success' {
  if (caller === 'no token' || caller === 'bad token') return 401;
  if (rule.to === 'caller') return 'success';
  const hidden = 'missing' in rule && rule.missing === 'no-content' ? 204 : 404;
  if (caller === 'outsider') return hidden;
  const orgRole = caller === 'guest' ? null : caller;
  if (rule.to === 'organization') return rule.role === 'guest' || atLeast(orgRole, rule.role) ? 'success' : 403;
  // Content at the default level: the caller's role on it is the organization role; guests see nothing.
  if (orgRole === null) return hidden;
  return atLeast(orgRole, rule.role) ? 'success' : 403;
}

const implemented = (Object.entries(contractOperations) as [keyof typeof handlers, Operation][]).filter(([id]) =>
  isImplemented(handlers[id]),
);
const isGrantKind = (caller: CallerKind): caller is GrantCallerKind => (grantCallerKinds as readonly string[]).includes(caller);
// The callers with grants (support/matrix/grants.ts) call the operations on a space, a collection or a site.
const cases = implemented.flatMap(([id, op]) => [
  ...callerKinds.map((caller) => [id, caller, op] as const),
  ...grantCallerKinds.filter((kind) => grantKindApplies(op, kind)).map((kind) => [id, kind as CallerKind, op] as const),
]);

describe('access matrix', () => {
  let world: MatrixWorld;
  let grantCallers: GrantCallers;

  beforeAll(async () => {
    const admin = await h.current.newAdmin();
    const members = { guest: await h.current.newMember(admin.organizationId, null) } as MatrixWorld['members'];
    for (const role of roles) members[role] = await h.current.newMember(admin.organizationId, role);
    world = { h: h.current, admin, outsider: await h.current.newAdmin(), members };
    grantCallers = await makeGrantCallers(h.current, admin);
  });

  /**
   * The path parameters of a case. A call that succeeds can change something, so a write expected to
   * succeed gets fresh resources and does not affect the other cases; reads, and writes the rule refuses
   * (401, 403, 404), share one set per operation (making resources is most of the matrix's time). A
   * refusal that wrongly succeeds fails its own case whatever it does to the shared set.
   */
  const shared = new Map<string, Promise<Record<string, string>>>();
  function paramsOfCase(id: string, op: Operation, expectsSuccess: boolean, caller: CallerKind): Promise<Record<string, string>> {
    // A private resource (defaultLevel null) is a set of its own, shared by the private callers.
    const fresh = isGrantKind(caller) && isPrivateKind(caller) ? () => privateParams(op) : () => freshParams(op);
    if (op.method !== 'get' && expectsSuccess) return fresh();
    const key = isGrantKind(caller) && isPrivateKind(caller) ? `${id}#private` : id;
    if (!shared.has(key)) shared.set(key, fresh());
    return shared.get(key)!;
  }

  async function privateParams(op: Operation): Promise<Record<string, string>> {
    const params = await freshParams(op);
    await makePrivate(world, op, params);
    return params;
  }

  /** The operation's path parameters, each a fresh resource. */
  async function freshParams(op: Operation): Promise<Record<string, string>> {
    const chosen: Record<string, string> = {};
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
      const make = matrixFixtures.find((f) => f.params?.[name])?.params?.[name];
      if (!make) throw new Error(`No matrix fixture for the path parameter ${name}: add one under test/support/matrix/`);
      chosen[name] = await make(world, chosen);
    }
    return chosen;
  }

  function tokenOf(caller: CallerKind): string | null {
    if (caller === 'no token') return null;
    if (caller === 'bad token') return 'dwt_not-a-real-token';
    if (caller === 'outsider') return world.outsider.token;
    if (isGrantKind(caller)) return grantCallers.accounts[caller].token;
    return world.members[caller].token;
  }

  // Which cases reached their status check and passed it, per operation: filled by the cases below,
  // which vitest runs before the coverage check at the end.
  const passed = new Map<string, Set<CallerKind>>();

  it.each(cases)('%s as %s answers what its access rule declares', async (id, caller, op) => {
    // An operation whose rules live in the store states, in its fixtures, what each caller gets.
    const storeRule = matrixFixtures.find((f) => f.expected?.[id])?.expected?.[id];
    const want = isGrantKind(caller)
      ? expectedForGrant(id, op.access, caller)
      : storeRule && caller !== 'no token' && caller !== 'bad token'
        ? storeRule(caller)
        : expected(op.access, caller);
    const params = await paramsOfCase(id, op, want === 'success' || (typeof want === 'number' && want < 300), caller);
    if (isGrantKind(caller)) await grantFor(world, grantCallers, caller, op, params);
    await matrixFixtures.find((f) => f.prepare?.[id])?.prepare?.[id](world, params);
    const path = `/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]))}`;
    const makeBody = matrixFixtures.find((f) => f.bodies?.[id])?.bodies?.[id];
    const body = op.body ? ((await makeBody?.(world, params)) ?? {}) : undefined;
    const query = await matrixFixtures.find((f) => f.queries?.[id])?.queries?.[id]?.(world, params);
    const res: ApiResponse = await send(h.current.app, op.method, path, { token: tokenOf(caller), body, ...(query && { query }) });
    const detail = `${op.method.toUpperCase()} ${path} -> ${res.status} ${JSON.stringify(res.body)}`;
    if (want === 'success') expect(res.status >= 200 && res.status < 300, detail).toBe(true);
    else expect(res.status, detail).toBe(want);
    passed.set(id, (passed.get(id) ?? new Set()).add(caller));
  });

  it('covers every operation of the contract, each for every kind of caller', () => {
    // From the contract, not from the implemented list the cases come from: an operation left as a 501
    // stub, or a case skipped or failed, is named here.
    const missing = Object.keys(contractOperations).flatMap((id) => {
      const callers = callerKinds.filter((caller) => !passed.get(id)?.has(caller));
      return callers.length === 0 ? [] : [`${id}: ${callers.join(', ')}`];
    });
    expect(missing).toEqual([]);
  });
});

// The paths served without a token (contract/downloads.ts) answer every caller alike: the URL is the
// permission (`signed`) or there is none to have (`public`), so a token, a bad one or none changes nothing.
describe('access matrix: paths served without a token', () => {
  let world: MatrixWorld;
  beforeAll(async () => {
    const admin = await h.current.newAdmin();
    const members = { guest: await h.current.newMember(admin.organizationId, null) } as MatrixWorld['members'];
    for (const role of roles) members[role] = await h.current.newMember(admin.organizationId, role);
    world = { h: h.current, admin, outsider: await h.current.newAdmin(), members };
  });

  const linkCases = Object.entries(downloadOperations).flatMap(([id, op]) => callerKinds.map((caller) => [id, caller, op.permission] as const));
  it.each(linkCases)('%s as %s answers its content (%s)', async (id, caller) => {
    const make = matrixFixtures.find((f) => f.links?.[id])?.links?.[id];
    if (!make) throw new Error(`No link recipe for ${id}: add one under test/support/matrix/`);
    const url = new URL(await make(world), 'http://server');
    const token = caller === 'no token' ? null : caller === 'bad token' ? 'dwt_not-a-real-token' : caller === 'outsider' ? world.outsider.token : world.members[caller as keyof MatrixWorld['members']].token;
    const res = await send(h.current.app, 'get', url.pathname, { token, query: Object.fromEntries(url.searchParams) });
    expect(res.status, `GET ${url.pathname} -> ${res.status}`).toBe(200);
  });
});
