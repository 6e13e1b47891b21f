// The compiled route table (server/http/route-table.ts) matches as Express's router did when it served /v1.
import { describe, expect, it } from 'vitest';
import { routes } from '../generated/router.js';
import { BadRequest } from '../server/errors.js';
import { compileRouteTable, decodeParams } from '../server/http/route-table.js';

const lookup = compileRouteTable();

describe('route table', () => {
  it('finds every route of the table by its own method and path', () => {
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, 'x_$1');
      const found = lookup(route.method.toUpperCase(), path);
      // A literal route listed first (versions/latest) is found for its own path; every route is found.
      expect(found && 'operationId' in found && found.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
    }
  });

  it('gives the path parameters by name, still percent-encoded', () => {
    expect(lookup('GET', '/spaces/spc_1/content/page/pg%2F1')).toEqual({ operationId: 'getPageById', rawParams: { spaceId: 'spc_1', pageId: 'pg%2F1' } });
  });

  it('matches literals case-insensitively and allows one trailing slash, as Express did', () => {
    expect(lookup('GET', '/Spaces/spc_1/')).toEqual({ operationId: 'getSpaceById', rawParams: { spaceId: 'spc_1' } });
    expect(lookup('GET', '/spaces/spc_1//')).toBeUndefined();
    expect(lookup('GET', '/spaces//content')).toBeUndefined();
  });

  it('serves HEAD with the GET operation', () => {
    expect(lookup('HEAD', '/spaces/spc_1')).toEqual({ operationId: 'getSpaceById', rawParams: { spaceId: 'spc_1' } });
  });

  it('prefers the literal route listed first: /versions/latest is not a version id', () => {
    const found = lookup('GET', '/orgs/org_1/openapi/petstore/versions/latest');
    expect(found && 'operationId' in found && found.operationId).toBe('getLatestOpenAPISpecVersion');
  });

  it('answers the methods a known path serves, and nothing for a path no operation has', () => {
    expect(lookup('PUT', '/user')).toEqual({ allow: 'GET' });
    expect(lookup('GET', '/nothing-here')).toBeUndefined();
    expect(lookup('GET', '/spaces/spc_1/nothing-here')).toBeUndefined();
  });

  it('decodes parameters, and names the one whose escape is malformed', () => {
    expect(decodeParams({ pageId: 'a%2Fb%20c' })).toEqual({ pageId: 'a/b c' });
    expect(() => decodeParams({ spaceId: 'spc_1', pageId: '%E0%A4%A' })).toThrow(BadRequest);
    expect(() => decodeParams({ pageId: '%zz' })).toThrow(/params: pageId: malformed percent-encoding/);
  });
});
