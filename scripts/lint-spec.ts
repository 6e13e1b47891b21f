// Runs Redocly CLI (recommended rules, see redocly.yaml) on the published document and fails on any
// problem, warnings included: Redocly itself only fails on errors.
import { spawnSync } from 'node:child_process';

// Redocly exits non-zero when it finds errors; the JSON report on stdout is read either way.
const output = spawnSync('npx', ['redocly', 'lint', 'generated/openapi.yaml', '--format=json'], { encoding: 'utf8' }).stdout;
const report = JSON.parse(output.slice(output.indexOf('{'))) as {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
};
for (const p of report.problems) console.error(`${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
console.log(`redocly: ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
if (report.problems.length > 0) process.exit(1);
