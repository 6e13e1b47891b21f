// The dynamic mock: Prism generating answers from the schemas. Two calls give different data, each valid
// against the spec; a refused request says what was wrong, in its body and in the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockMode, type RunningMock } from '../mock/modes.js';
import { findOperation, responseProblems } from './support/spec.js';

const lines: string[] = [];
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMockMode('dynamic', { log: (line) => lines.push(line) });
});
afterAll(async () => mock?.stop());

async function get(path: string) {
  const res = await fetch(`${mock.baseUrl}${path}`, { headers: { Authorization: 'Bearer any-token' } });
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: await res.json() };
}

describe('dynamic mock', () => {
  it('answers with varied data that the spec allows', async () => {
    const op = findOperation('get', '/v1/orgs/org_demo/spaces')!;
    const answers = [await get('/orgs/org_demo/spaces'), await get('/orgs/org_demo/spaces'), await get('/orgs/org_demo/spaces')];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      // Open objects: Prism's generated data adds properties the published (open) schemas allow.
      expect(responseProblems(op, answer.status, answer.body, answer.headers, { open: true })).toEqual([]);
    }
    const distinct = new Set(answers.map((a) => JSON.stringify(a.body)));
    expect(distinct.size).toBe(3);
    const example = op.operation.responses['200'].content['application/json'].example;
    expect(answers.map((a) => a.body)).not.toContainEqual(example);
  });

  it('refuses an invalid request naming the field, in the body and in the log', async () => {
    const res = await fetch(`${mock.baseUrl}/orgs/org_demo/spaces`, {
      method: 'POST',
      headers: { Authorization: 'Bearer any-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 5, color: 'red' }),
    });
    expect(res.status).toBe(400);
    const message: string = (await res.json()).error.message;
    expect(message).toContain('body.title: Request body property title must be string');
    expect(message).toContain("found 'color'");
    const line = lines.find((l) => l.startsWith('POST /v1/orgs/org_demo/spaces 400 '));
    expect(line).toContain('(prism) — ');
    expect(line).toContain('body.title: Request body property title must be string');
  });

  it('serves the published document and the reference like the server', async () => {
    const yaml = await fetch(`${mock.baseUrl}/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toContain('openapi: 3.1');
    expect((await fetch(mock.baseUrl.replace(/\/v1$/, '/docs'))).status).toBe(200);
  });
});
