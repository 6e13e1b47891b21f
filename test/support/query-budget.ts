// The query budget: every request a test file makes through its harness app has its SQL statements
// counted (server/db/query-count.ts, after authentication), and the most each operation sent is held
// against the committed budget in test/query-budget.json when the file ends. A file whose requests went
// over an operation's budget fails, naming the operation and both numbers; lowering a budget is a
// one-line change in that file. `QUERY_BUDGET=record npm test` also writes what each file saw to
// test-results/query-counts/, and `npx tsx scripts/query-budget.ts` merges it into the budget file.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export const BUDGET_FILE = path.resolve(import.meta.dirname, '../query-budget.json');
export const RECORD_DIR = path.resolve(import.meta.dirname, '../../test-results/query-counts');

let budget: Record<string, number> | undefined;
export function committedBudget(): Record<string, number> {
  budget ??= JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as Record<string, number>;
  return budget;
}

/** The most statements each operation sent in one request, over one test file's requests. */
export class StatementRecorder {
  private readonly most = new Map<string, number>();

  readonly onStatements = (operationId: string, statements: number): void => {
    if (statements > (this.most.get(operationId) ?? -1)) this.most.set(operationId, statements);
  };

  /**
   * Throws when an operation went over its budget; writes the counts in record mode. An operation with
   * no budget is not checked here: test/query-budget.test.ts fails until every operation has one.
   */
  check(): void {
    if (this.most.size === 0) return;
    if (process.env.QUERY_BUDGET === 'record') {
      mkdirSync(RECORD_DIR, { recursive: true });
      writeFileSync(path.join(RECORD_DIR, `${randomBytes(6).toString('hex')}.json`), JSON.stringify(Object.fromEntries(this.most)));
      return;
    }
    const limits = committedBudget();
    const over = [...this.most]
      .filter(([operationId, statements]) => operationId in limits && statements > limits[operationId])
      .map(([operationId, statements]) => `${operationId}: ${statements} statements, budget ${limits[operationId]}`);
    if (over.length > 0) throw new Error(`Over the query budget (test/query-budget.json):\n  ${over.join('\n  ')}`);
  }
}
