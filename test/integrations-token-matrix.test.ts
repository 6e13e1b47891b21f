// The access matrix of installation tokens: every implemented operation, called with a token of an
// installation (in the matrix world's organization, covering all its spaces and sites), succeeds when one
// of its integration's scopes allows it (server/auth/installation-scopes.ts) and answers 403 naming the
// scope otherwise; an operation no scope allows answers 403 to every installation token. What each scope
// allows is written out below, on its own, not read from the server's table: a wrong line there fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { integrationScopes } from '../contract/integration-schemas.js';
import { contractOperations } from '../contract/index.js';
import type { Operation } from '../contract/operation.js';
import { roles } from '../contract/common.js';
import { handlers } from '../server/handlers.js';
import { isImplemented } from '../server/http/not-implemented.js';
import { send } from './support/api.js';
import { useHarness } from './support/harness.js';
import { matrixFixtures, type MatrixWorld } from './support/matrix/index.js';
import { publishAs } from './support/matrix/integrations.js';

const h = useHarness();

const implemented = (Object.entries(contractOperations) as [keyof typeof handlers, Operation][]).filter(([id]) => isImplemented(handlers[id]));
/**
 * The scopes that allow each operation an installation token may call; every other operation, none.
 * Scopes about what this API does not serve (git sync, page feedback, site views, scripts, visitor
 * authentication) allow nothing.
 */
const allowedBy: Record<string, readonly string[]> = {
  createChangeRequest: ['space:content:write'],
  createOpenAPISpec: ['openapi:write'],
  createOrUpdateOpenAPISpecBySlug: ['openapi:write'],
  deleteOpenAPISpecBySlug: ['openapi:write'],
  getChangeRequestById: ['space:content:read'],
  getCurrentRevision: ['space:content:read'],
  getFileById: ['space:content:read'],
  getFileInChangeRequestById: ['space:content:read'],
  getLatestOpenAPISpecVersion: ['openapi:read'],
  getLatestOpenAPISpecVersionContent: ['openapi:read'],
  getOpenAPISpecBySlug: ['openapi:read'],
  getOpenAPISpecVersionById: ['openapi:read'],
  getOpenAPISpecVersionContentById: ['openapi:read'],
  getPageById: ['space:content:read'],
  getPageInChangeRequestById: ['space:content:read'],
  getRevisionOfChangeRequestById: ['space:content:read'],
  getSiteAdaptiveSchema: ['site:adaptive:read'],
  getSiteById: ['site:metadata:read'],
  getSiteCustomizationById: ['site:metadata:read'],
  getSpaceById: ['space:metadata:read'],
  ingestConversation: ['conversations:ingest'],
  listChangeRequestsForSpace: ['space:content:read'],
  listFiles: ['space:content:read'],
  listFilesInChangeRequestById: ['space:content:read'],
  listOpenAPISpecVersions: ['openapi:read'],
  listOpenAPISpecs: ['openapi:read'],
  listPages: ['space:content:read'],
  listPagesInChangeRequest: ['space:content:read'],
  listSiteAdaptiveTemplateConditions: ['site:adaptive:read'],
  listSiteSectionGroups: ['site:metadata:read'],
  listSiteSections: ['site:metadata:read'],
  listSiteSpaces: ['site:metadata:read'],
  listSpaceFileBacklinks: ['space:content:read'],
  listSpaceLinks: ['space:content:read'],
  listSpacePageBacklinks: ['space:content:read'],
  listSpacePageLinks: ['space:content:read'],
  mergeChangeRequest: ['space:content:write'],
  searchSpaceContent: ['space:content:read'],
  updateChangeRequest: ['space:content:write'],
  updateChangeRequestById: ['space:content:write'],
  updateChangeRequestContent: ['space:content:write'],
  updateOpenAPISpecBySlug: ['openapi:write'],
  updateSiteAdaptiveSchema: ['site:adaptive:write'],
  updateSpaceById: ['space:metadata:write'],
};
const scopesAllowing = (id: string): readonly string[] => allowedBy[id] ?? [];
/** The integration's own operations: open to its installations' tokens without a scope, 404 for another integration. */
const integrationOwn: ReadonlySet<string> = new Set(['queueIntegrationTask']);
const isIntegrationOwnOperation = (id: string) => integrationOwn.has(id);
const scoped = implemented.filter(([id]) => scopesAllowing(id).length > 0);

describe('installation tokens across every operation', () => {
  let world: MatrixWorld;
  /** A token of an installation whose integration asks for every scope, and one for every scope but those allowing the operation. */
  let allScopes: string;
  const withoutScopes = new Map<string, Promise<string>>();
  let n = 0;

  /** `all`: the installation covers every space and site of the organization (the scope is checked first). */
  async function installationToken(scopes: string[], all: boolean): Promise<string> {
    const name = `token-matrix-${Date.now().toString(36)}-${++n}`;
    await publishAs(world.admin, name, { scopes });
    const installed = await world.admin.api.post(`/integrations/${name}/installations`, { organization: world.admin.organizationId });
    expect(installed.status).toBe(200);
    if (all) {
      const selections = await world.admin.api.patch(`/integrations/${name}/installations/${installed.body.id}`, { space_selection: 'all', site_selection: 'all' });
      expect(selections.status).toBe(200);
    }
    const token = await world.admin.api.post(`/integrations/${name}/installations/${installed.body.id}/tokens`);
    expect(token.status).toBe(200);
    return token.body.token;
  }

  beforeAll(async () => {
    const admin = await h.current.newAdmin();
    const members = { guest: await h.current.newMember(admin.organizationId, null) } as MatrixWorld['members'];
    for (const role of roles) members[role] = await h.current.newMember(admin.organizationId, role);
    world = { h: h.current, admin, outsider: await h.current.newAdmin(), members };
    allScopes = await installationToken([...integrationScopes], true);
  });

  async function call(id: string, op: Operation, token: string) {
    const params: Record<string, string> = {};
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
      const make = matrixFixtures.find((f) => f.params?.[name])?.params?.[name];
      if (!make) throw new Error(`No matrix fixture for the path parameter ${name}`);
      params[name] = await make(world, params);
    }
    const path = `/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]))}`;
    const body = op.body ? ((await matrixFixtures.find((f) => f.bodies?.[id])?.bodies?.[id]?.(world, params)) ?? {}) : undefined;
    const query = await matrixFixtures.find((f) => f.queries?.[id])?.queries?.[id]?.(world, params);
    const res = await send(h.current.app, op.method, path, { token, body, ...(query && { query }) });
    return { res, detail: `${op.method.toUpperCase()} ${path} -> ${res.status} ${JSON.stringify(res.body)}` };
  }

  it('the expected table names operations of the contract and scopes integrations may ask for', () => {
    expect(Object.keys(allowedBy).filter((id) => !(id in contractOperations))).toEqual([]);
    expect(Object.values(allowedBy).flat().filter((scope) => !(integrationScopes as readonly string[]).includes(scope))).toEqual([]);
  });

  it.each(implemented)('%s with an installation token of every scope', async (id, op) => {
    const { res, detail } = await call(id, op, allScopes);
    // The integration's own operations (queueIntegrationTask) need no scope, only the token's own integration:
    // the matrix names an integration of its own, which another integration's token does not find.
    if (isIntegrationOwnOperation(id)) expect(res.status, detail).toBe(404);
    else if (scopesAllowing(id).length > 0) expect(res.status >= 200 && res.status < 300, detail).toBe(true);
    else {
      expect(res.status, detail).toBe(403);
      expect(res.body.error.message, detail).toContain(`cannot call ${id}`);
    }
  });

  it.each(scoped)('%s with an installation token lacking the scopes that allow it', async (id, op) => {
    const allowing = scopesAllowing(id);
    const others = integrationScopes.filter((scope) => !allowing.includes(scope));
    const key = allowing.join(' ');
    if (!withoutScopes.has(key)) withoutScopes.set(key, installationToken(others, false));
    const { res, detail } = await call(id, op, await withoutScopes.get(key)!);
    expect(res.status, detail).toBe(403);
    expect(res.body.error.message, detail).toContain(allowing.join(' or '));
  });
});
