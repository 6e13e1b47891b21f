import path from 'node:path';

export const resultsDir = path.resolve(import.meta.dirname, '../../test-results');
/** One JSON line per response the contract tests received: operationId, status, test name. */
export const operationsLog = path.join(resultsDir, 'operations.ndjson');
