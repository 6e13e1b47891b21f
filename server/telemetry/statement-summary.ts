// What a database span says of its statement: its verb and the first table it names, read from the SQL
// text (never its parameters, which are `$1…` placeholders there, nor anything else of the text).

export interface StatementSummary {
  /** `SELECT`, `INSERT`, `BEGIN`, …: the statement's first keyword. */
  operation: string;
  /** The first table after FROM, INTO or UPDATE (schema-qualified as written), if any. */
  table?: string;
}

const FIRST_WORD = /^\s*([a-z]+)/i;
// An identifier, plain or double-quoted, not a function call (`extract(epoch from now())`; a column list
// follows a table after a space: `insert into "jobs" ("id", …)`).
const IDENTIFIER = String.raw`(?:"[\w$]+"|[a-z_][\w$]*)`;
const TABLE = new RegExp(String.raw`\b(?:from|into|update)\s+(${IDENTIFIER}(?:\s*\.\s*${IDENTIFIER})?)(?![\w$(])`, 'i');

// The server sends a few hundred distinct statement texts (Drizzle builds the same text for the same query
// shape), some of them kilobytes long: each is read once (a long one takes tens of microseconds).
const summaries = new Map<string, StatementSummary>();
const MAX_SUMMARIES = 2000;

export function summarizeStatement(text: string): StatementSummary {
  let summary = summaries.get(text);
  if (summary) return summary;
  const operation = FIRST_WORD.exec(text)?.[1].toUpperCase() ?? 'SQL';
  const table = TABLE.exec(text)?.[1].replace(/"|\s/g, '');
  summary = table ? { operation, table } : { operation };
  if (summaries.size >= MAX_SUMMARIES) summaries.clear(); // texts made per call (long IN lists) cannot grow it without bound
  summaries.set(text, summary);
  return summary;
}

/** A database span's name: the prepared statement's name, or the verb and table (`SELECT spaces`). */
export function statementSpanName(summary: StatementSummary, name?: string): string {
  if (name) return name;
  return summary.table ? `${summary.operation} ${summary.table}` : summary.operation;
}
