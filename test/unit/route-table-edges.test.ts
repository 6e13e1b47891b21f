// Edges of the compiled route table (server/http/route-table.ts) that test/route-table.test.ts leaves out:
// the bare root, and the Allow list of a path served by several methods.
import { describe, expect, it } from 'vitest';
import { compileRouteTable } from '../../server/http/route-table.js';

const lookup = compileRouteTable();

describe('route table edges', () => {
  it('finds nothing at the root or at an empty segment, with or without a trailing slash', () => {
    expect(lookup('GET', '/')).toBeUndefined();
    expect(lookup('GET', '')).toBeUndefined();
    expect(lookup('GET', '//')).toBeUndefined();
    expect(lookup('GET', '/orgs//members')).toBeUndefined();
  });

  it('lists every method a path serves, in table order, for a method it does not', () => {
    const found = lookup('PUT', '/orgs/org_1');
    expect(found).toBeDefined();
    expect(found && 'allow' in found && found.allow.split(', ')).toEqual(expect.arrayContaining(['GET', 'PATCH']));
    expect(found && 'allow' in found && found.allow).toMatch(/^[A-Z]+(, [A-Z]+)+$/);
  });
});
