// The database's table shapes, one file per area, one migration history (`npm run db:generate`).
// API shapes live in contract/; stores map rows to them explicitly.
export * from './core.js';
export * from './content.js';
export * from './jobs.js';
export * from './content-revisions.js';
export * from './change-requests.js';
export * from './members.js';
export * from './sso.js';
export * from './openapi.js';
export * from './integrations.js';
export * from './sites.js';
export * from './translations.js';
export * from './comments.js';
export * from './conversations.js';
export * from './change-request-pdfs.js';
export * from './search.js';
export * from './operating.js';
export * from './content-files.js';
export * from './permissions.js';
export * from './site-redirects.js';
