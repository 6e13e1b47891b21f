// Summarizes a Stryker JSON report (reports/mutation/mutation.json by default) per file: the score and the
// killed / survived / timeout / no-coverage counts as a Markdown table (the rows of bench/results/mutation.md),
// and with --survivors each surviving or uncovered mutant as `file:line  mutator  replacement`.
// --check N exits 1 when a module scores under N % (CI's gate, `npm run test:mutation:ci`); --write FILE
// also writes the table to FILE (Markdown) under the commit and the date it was measured on.
// Usage: npx tsx scripts/mutation-report.ts [report.json] [--survivors] [--check N] [--write FILE]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
const args = process.argv.slice(2);
const valueOf = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const optionValues = new Set([valueOf('--check'), valueOf('--write')]);
const file = args.find((a) => !a.startsWith('--') && !optionValues.has(a)) ?? 'reports/mutation/mutation.json';
const report = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, { source: string; mutants: Mutant[] }> };
const minimum = valueOf('--check') === undefined ? undefined : Number(valueOf('--check'));
if (minimum !== undefined && !(minimum >= 0 && minimum <= 100)) throw new Error('--check: a score between 0 and 100');

const table = ['| Module | Score | Killed | Survived | Timeout | No coverage | Errors |', '| --- | --- | --- | --- | --- | --- | --- |'];
const under: string[] = [];
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
  table.push(`| \`${name}\` | ${score} % | ${killed} | ${survived} | ${timeout} | ${noCoverage} | ${errors} |`);
  if (minimum !== undefined && valid > 0 && (100 * (killed + timeout)) / valid < minimum) under.push(`${name}: ${score} %`);
}
console.log(table.join('\n'));
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

const out = valueOf('--write');
if (out) {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'server'], { encoding: 'utf8' }).trim() !== '';
  writeFileSync(
    out,
    `# Mutation scores, as the last \`npm run test:mutation:ci\` measured them\n\nCommit ${commit}${dirty ? ' with changes to server/ not yet committed' : ''}, ${new Date().toISOString()}; ` +
      `report ${file}. Every module must score at least ${minimum ?? 80} % (docs/testing-behaviour.md, "Mutation testing").\n\n${table.join('\n')}\n`,
  );
}
if (under.length > 0) {
  console.error(`mutation score under ${minimum} %:\n  ${under.join('\n  ')}`);
  process.exit(1);
}
