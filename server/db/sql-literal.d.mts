/** Text, a finite number, a Date (as ISO text) or null as an SQL literal (sql-literal.mjs). */
export function sqlLiteral(value: unknown): string;
