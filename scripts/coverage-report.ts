// Lists every operation of the contract: implemented or not, and the tests that exercised it (from
// test-results/operations.ndjson, written by the contract tests). Fails when an implemented operation
// has no test that got a success (2xx) response from it. Writes test-results/coverage.md too.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { contractOperations } from '../contract/index.js';
import { errorsOf, type Operation } from '../contract/operation.js';
import { handlers } from '../server/handlers.js';
import { isImplemented } from '../server/http/not-implemented.js';

const resultsDir = path.resolve(import.meta.dirname, '../test-results');
const log = path.join(resultsDir, 'operations.ndjson');

interface Exercise {
  operationId: string;
  status: number;
  test: string;
}

const records: Exercise[] = existsSync(log)
  ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
  : [];

const rows = (Object.entries(contractOperations) as [keyof typeof handlers, Operation][]).map(([id, op]) => {
  const mine = records.filter((r) => r.operationId === id);
  const successTests = new Set(mine.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.test));
  const seen = new Set(mine.map((r) => r.status));
  const declared = [...Object.keys(op.responses).map(Number), ...errorsOf(op)];
  return {
    id,
    implemented: isImplemented(handlers[id]),
    successTests: [...successTests],
    statuses: declared.map((s) => (seen.has(s) ? `${s}` : `(${s})`)).join(' '),
  };
});

const lines = [
  '| operation | status | tests with a success response | declared statuses, (untested) |',
  '|---|---|---|---|',
  ...rows.map((r) => `| ${r.id} | ${r.implemented ? 'implemented' : 'not implemented (501)'} | ${r.successTests.length} | ${r.statuses} |`),
];
const missing = rows.filter((r) => r.implemented && r.successTests.length === 0);
const implemented = rows.filter((r) => r.implemented).length;
const summary = `${rows.length} operations: ${implemented} implemented, ${rows.length - implemented} not implemented; ${missing.length} implemented without a successful test.`;

writeFileSync(
  path.join(resultsDir, 'coverage.md'),
  [`# Operation coverage`, '', summary, '', ...lines, '', '## Tests per operation', '',
    ...rows.flatMap((r) => [`### ${r.id}`, ...r.successTests.map((t) => `- ${t}`), ''])].join('\n'),
);
console.log(lines.join('\n'));
console.log(`\n${summary}`);
if (records.length === 0) {
  console.error('No test results: run the tests first (`npm test`).');
  process.exit(1);
}
if (missing.length > 0) {
  console.error(`Implemented but never exercised successfully: ${missing.map((r) => r.id).join(', ')}`);
  process.exit(1);
}
