// A value as an SQL literal, for PGlite's EXECUTE of a prepared statement (a utility statement: it takes no
// bind parameters). Shared by the database thread (pglite-worker.mjs) and PGlite on the server's thread
// (client.ts); plain JavaScript so the worker, loaded by Node's own loader, can import it.

/** Text, a finite number, a Date (as ISO text) or null; standard_conforming_strings: only the quote needs doubling. */
export function sqlLiteral(value) {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' && Number.isFinite(value)) return `'${value}'`;
  const text = value instanceof Date ? value.toISOString() : value;
  if (typeof text !== 'string') throw new TypeError('a prepared statement on PGlite takes text, numbers, Dates and null');
  return `'${text.replaceAll("'", "''")}'`;
}
