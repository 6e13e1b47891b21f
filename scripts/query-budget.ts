// Reports what a `QUERY_BUDGET=record npx vitest run …` run measured (test-results/query-counts/) against
// the statement budgets the contract declares: each operation seen, the most one request of it sent, its
// budget, and the slack. Budgets are targets written in the contract (`statements`), never set from a
// measurement: this report only shows where one could be lowered, or which operations went unmeasured.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { declaredBudgets, RECORD_DIR } from '../test/support/query-budget.js';

const REPORT_FILE = path.resolve(RECORD_DIR, '../query-budget-report.json');

const seen: Record<string, number> = {};
for (const file of existsSync(RECORD_DIR) ? readdirSync(RECORD_DIR) : []) {
  const counts = JSON.parse(readFileSync(path.join(RECORD_DIR, file), 'utf8')) as Record<string, number>;
  for (const [operationId, statements] of Object.entries(counts)) seen[operationId] = Math.max(seen[operationId] ?? 0, statements);
}
const budgets = declaredBudgets();
const rows = Object.keys(budgets)
  .sort((a, b) => a.localeCompare(b))
  .map((operationId) => ({ operationId, budget: budgets[operationId], measured: seen[operationId] ?? null }));
writeFileSync(REPORT_FILE, `${JSON.stringify(rows, null, 2)}\n`);

const over = rows.filter((r) => r.measured !== null && r.measured > r.budget);
const under = rows.filter((r) => r.measured !== null && r.measured < r.budget);
const unmeasured = rows.filter((r) => r.measured === null);
for (const r of over) console.log(`over   ${r.operationId}: measured ${r.measured}, budget ${r.budget}`);
for (const r of under) console.log(`under  ${r.operationId}: measured ${r.measured}, budget ${r.budget}`);
console.log(
  `${rows.length - unmeasured.length} of ${rows.length} operations measured: ${over.length} over budget, ${under.length} under it; ` +
    `report in ${path.relative(process.cwd(), REPORT_FILE)}`,
);
if (over.length > 0) process.exitCode = 1;
