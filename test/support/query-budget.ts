// The statement budget: every request a test file makes through its harness app has its SQL statements
// counted (server/db/query-count.ts, after authentication), and the most each operation sent is held
// against the budget its contract declares (`statements`, beside its access rule) when the file ends. A
// file whose requests went over an operation's budget fails, naming the operation and both numbers.
// `QUERY_BUDGET=record` also writes what each file saw to test-results/query-counts/, and
// `npx tsx scripts/query-budget.ts` reports it against the budgets (docs/testing-behaviour.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { contractOperations } from '../../contract/index.js';

export const RECORD_DIR = path.resolve(import.meta.dirname, '../../test-results/query-counts');

/** Each operation's statement budget, as its contract declares it. */
export function declaredBudgets(): Record<string, number> {
  return Object.fromEntries(Object.entries(contractOperations).map(([operationId, op]) => [operationId, op.statements]));
}

/** The operations a count went over, each named with what it sent and its budget. */
export function overBudget(most: Iterable<[string, number]>, budgets: Record<string, number> = declaredBudgets()): string[] {
  return [...most]
    .filter(([operationId, statements]) => !(operationId in budgets) || statements > budgets[operationId])
    .map(([operationId, statements]) => `${operationId}: ${statements} statements, budget ${budgets[operationId] ?? 'none declared'}`);
}

/** The most statements each operation sent in one request, over one test file's requests. */
export class StatementRecorder {
  private readonly most = new Map<string, number>();

  readonly onStatements = (operationId: string, statements: number): void => {
    if (statements > (this.most.get(operationId) ?? -1)) this.most.set(operationId, statements);
  };

  /** Throws when an operation went over its budget; also writes the counts in record mode. */
  check(): void {
    if (this.most.size === 0) return;
    if (process.env.QUERY_BUDGET === 'record') {
      mkdirSync(RECORD_DIR, { recursive: true });
      writeFileSync(path.join(RECORD_DIR, `${randomBytes(6).toString('hex')}.json`), JSON.stringify(Object.fromEntries(this.most)));
    }
    const over = overBudget(this.most);
    if (over.length > 0) throw new Error(`Over the statement budget (its contract's \`statements\`):\n  ${over.join('\n  ')}`);
  }
}
