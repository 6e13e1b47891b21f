// Summarizes a Stryker JSON report (reports/mutation/mutation.json by default) per file: the score and the
// killed / survived / timeout / no-coverage counts as a Markdown table (the rows of bench/results/mutation.md),
// and with --survivors each surviving or uncovered mutant as `file:line  mutator  replacement`.
// Usage: npx tsx scripts/mutation-report.ts [report.json] [--survivors]
import { readFileSync } from 'node:fs';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? 'reports/mutation/mutation.json';
const report = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, { source: string; mutants: Mutant[] }> };

console.log('| Module | Score | Killed | Survived | Timeout | No coverage | Errors |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [name, { mutants }] of Object.entries(report.files)) {
  const count = (status: string) => mutants.filter((m) => m.status === status).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const errors = count('CompileError') + count('RuntimeError');
  // Stryker's score: detected (killed + timeout) over valid mutants (errors and ignored left out).
  const valid = killed + timeout + survived + noCoverage;
  const score = valid ? ((100 * (killed + timeout)) / valid).toFixed(2) : '-';
  console.log(`| \`${name}\` | ${score} % | ${killed} | ${survived} | ${timeout} | ${noCoverage} | ${errors} |`);
}
if (args.includes('--survivors')) {
  for (const [name, { source, mutants }] of Object.entries(report.files)) {
    const lines = source.split('\n');
    for (const m of mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage')) {
      const { start, end } = m.location;
      // The mutated fragment itself (columns are 1-based), not the whole line: `a && b` mutated in `a` only reads differently.
      const original = start.line === end.line ? lines[start.line - 1].slice(start.column - 1, end.column - 1) : `${lines[start.line - 1].slice(start.column - 1)}…`;
      const flat = (text: string) => text.replace(/\s+/g, ' ').slice(0, 110);
      console.log(`${name}:${start.line}:${start.column} ${m.status} ${m.mutatorName}: ${flat(original)}\n    -> ${flat(m.replacement ?? '')}`);
    }
  }
}
