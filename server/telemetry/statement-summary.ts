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

export function summarizeStatement(text: string): StatementSummary {
  const operation = FIRST_WORD.exec(text)?.[1].toUpperCase() ?? 'SQL';
  const table = TABLE.exec(text)?.[1].replace(/"|\s/g, '');
  return table ? { operation, table } : { operation };
}

/** A database span's name: the prepared statement's name, or the verb and table (`SELECT spaces`). */
export function statementSpanName(summary: StatementSummary, name?: string): string {
  if (name) return name;
  return summary.table ? `${summary.operation} ${summary.table}` : summary.operation;
}
