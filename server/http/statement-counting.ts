// Counts the SQL statements of each request (server/db/query-count.ts) and reports them with the
// operation that answered, once the answer is sent: the query-budget test's probe.
import type { RequestHandler } from 'express';
import { countingStatements } from '../db/query-count.js';

export function statementCounting(report: (operationId: string, statements: number) => void): RequestHandler {
  return (_req, res, next) => {
    countingStatements((tally) => {
      res.on('finish', () => {
        if (typeof res.locals.operationId === 'string') report(res.locals.operationId, tally.statements);
      });
      next();
    });
  };
}
