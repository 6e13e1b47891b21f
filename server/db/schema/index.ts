// The database's table shapes, one file per area, one migration history (`npm run db:generate`).
// API shapes live in contract/; stores map rows to them explicitly.
export * from './core.js';
export * from './content.js';
export * from './jobs.js';
