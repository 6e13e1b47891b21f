// Merges the statement counts a `QUERY_BUDGET=record npm test` run wrote (test-results/query-counts/)
// into test/query-budget.json: each operation's budget becomes the most any request of it sent. Budgets
// only rise here when the recorded runs needed more; `--lower` also lowers them to what was seen.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUDGET_FILE, RECORD_DIR } from '../test/support/query-budget.js';

const lower = process.argv.includes('--lower');
const seen: Record<string, number> = {};
for (const file of existsSync(RECORD_DIR) ? readdirSync(RECORD_DIR) : []) {
  const counts = JSON.parse(readFileSync(path.join(RECORD_DIR, file), 'utf8')) as Record<string, number>;
  for (const [operationId, statements] of Object.entries(counts)) seen[operationId] = Math.max(seen[operationId] ?? 0, statements);
}
const current = existsSync(BUDGET_FILE) ? (JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as Record<string, number>) : {};
const merged: Record<string, number> = { ...current };
for (const [operationId, statements] of Object.entries(seen)) {
  merged[operationId] = lower ? statements : Math.max(current[operationId] ?? 0, statements);
}
const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(BUDGET_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(seen).length} operations recorded; ${Object.keys(sorted).length} budgets in ${path.relative(process.cwd(), BUDGET_FILE)}`);
