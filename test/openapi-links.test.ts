// The links of the published document (scripts/openapi-links.ts): every create leads to the read of
// what it made, every link names an operation of the document and fills each of its path parameters.
import { describe, expect, it } from 'vitest';
import { spec, specOperations } from './support/spec.js';

type Json = Record<string, any>;

const byId = new Map(specOperations.map((op) => [op.operationId, op]));
const links = specOperations.flatMap((op) =>
  Object.entries(op.responses as Json).flatMap(([status, response]) =>
    Object.entries((response.links ?? {}) as Json).map(([name, link]) => ({ source: op, status, name, link })),
  ),
);

/** The property names of a response schema; of a union, those every branch has. */
function propertiesOf(schema: Json): string[] {
  const resolved = schema.$ref ? spec.components.schemas[schema.$ref.split('/').pop()] : schema;
  const branches = (resolved.anyOf ?? resolved.oneOf) as Json[] | undefined;
  if (!branches) return Object.keys(resolved.properties ?? {});
  const [first, ...rest] = branches.map(propertiesOf);
  return first.filter((name) => rest.every((names) => names.includes(name)));
}

describe('OpenAPI links', () => {
  it('every create answering 201 links to the read of what it made', () => {
    const creates = specOperations.filter((op) => op.method === 'post' && op.responses['201']?.content);
    const missing = creates.filter((op) => {
      const read = specOperations.find((t) => t.method === 'get' && new RegExp(`^${op.path.replace(/[{}]/g, '\\$&')}/\\{\\w+\\}$`).test(t.path));
      return read && !Object.values((op.responses['201'].links ?? {}) as Json).some((l) => l.operationId === read.operationId);
    });
    expect(missing.map((op) => op.operationId)).toEqual([]);
    expect(links.length).toBeGreaterThan(20);
  });

  it('the obvious chains: space -> pages, change request -> its content, site -> sections', () => {
    const from = (operationId: string) => links.filter((l) => l.source.operationId === operationId).map((l) => l.link.operationId);
    expect(from('getSpaceById')).toContain('listPages');
    expect(from('createChangeRequest')).toEqual(expect.arrayContaining(['getChangeRequestById', 'listPagesInChangeRequest']));
    expect(from('createSite')).toEqual(expect.arrayContaining(['getSiteById', 'listSiteSections']));
  });

  it('every link names an operation of the document and fills each of its path parameters from the source', () => {
    const problems: string[] = [];
    for (const { source, status, name, link } of links) {
      const at = `${source.operationId} -> ${name}`;
      const target = byId.get(link.operationId);
      if (!target) {
        problems.push(`${at}: no operation ${link.operationId}`);
        continue;
      }
      const targetParams = [...target.path.matchAll(/\{(\w+)\}/g)].map(([, n]) => n).sort();
      if (JSON.stringify(Object.keys(link.parameters).sort()) !== JSON.stringify(targetParams)) problems.push(`${at}: fills ${Object.keys(link.parameters)}, needs ${targetParams}`);
      const sourceParams = new Set([...source.path.matchAll(/\{(\w+)\}/g)].map(([, n]) => n));
      const schema = source.responses[status].content['application/json'].schema;
      const properties = propertiesOf(schema);
      for (const expression of Object.values(link.parameters) as string[]) {
        const fromRequest = expression.match(/^\$request\.path\.(\w+)$/)?.[1];
        const fromBody = expression.match(/^\$response\.body#\/(\w+)$/)?.[1];
        if (fromRequest ? !sourceParams.has(fromRequest) : !fromBody || !properties.includes(fromBody)) problems.push(`${at}: ${expression} points at nothing`);
      }
    }
    expect(problems).toEqual([]);
  });
});
