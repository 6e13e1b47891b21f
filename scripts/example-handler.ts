// Replaces one operation's handler by one that answers its documented example (what the mock answers),
// runs the test files that exercise the operation, and says whether they caught it: a suite that passes
// with a handler that only returns the example proves shapes, not behaviour.
//
//   npx tsx scripts/example-handler.ts <operationId> [<operationId> …]
//
// The swap is an override appended to server/handlers.ts for the run, restored afterwards (also on
// Ctrl-C). The test files run are the operation's contract tests (titled by its method and path); the
// access matrix, the fuzz and the query budget are not run (they check shapes and statuses). One line per operation is printed, to be copied into bench/results/example-handlers.md.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const handlersFile = path.join(root, 'server/handlers.ts');
type Json = Record<string, any>;
const spec: Json = JSON.parse(readFileSync(path.join(root, 'generated/openapi.json'), 'utf8'));

function operation(id: string): { method: string; path: string; responses: Json } {
  for (const [p, item] of Object.entries(spec.paths as Json))
    for (const [method, op] of Object.entries(item as Json)) if (op?.operationId === id) return { method, path: p, responses: op.responses };
  throw new Error(`no operation ${id} in generated/openapi.json`);
}

/** The success status and its documented example (none for a 204). */
function documented(id: string): { status: number; body?: unknown; headers: Record<string, string> } {
  const { responses } = operation(id);
  const status = Object.keys(responses).map(Number).find((s) => s >= 200 && s < 300)!;
  const response = responses[String(status)];
  const headers = Object.fromEntries(Object.entries((response.headers ?? {}) as Json).map(([name, h]) => [name, String(h.example ?? h.schema?.example ?? '')]));
  return { status, body: response.content?.['application/json']?.example, headers };
}

/**
 * The operation's contract test files: those with a test titled by its method and path (`get
 * /spaces/{spaceId} returns …`, the suite's convention), else those naming its operation id.
 */
function testFiles(id: string): string[] {
  const { method, path: template } = operation(id);
  const title = new RegExp(`${method} ${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/{-])`);
  const files = readdirSync(path.join(root, 'test')).filter((f) => f.endsWith('.test.ts'));
  const read = (f: string) => readFileSync(path.join(root, 'test', f), 'utf8');
  const titled = files.filter((f) => title.test(read(f)));
  return (titled.length > 0 ? titled : files.filter((f) => read(f).includes(id))).map((f) => `test/${f}`);
}

function run(id: string): string {
  const original = readFileSync(handlersFile, 'utf8');
  const answer = documented(id);
  const restore = () => writeFileSync(handlersFile, original);
  const interrupted = () => {
    restore();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  const files = testFiles(id);
  if (files.length === 0) return `| ${id} | (no test file names it) | — | not caught |`;
  try {
    writeFileSync(
      handlersFile,
      `${original}\n// scripts/example-handler.ts: ${id} answers its documented example.\n` +
        `Object.assign(handlers, { ${id}: async () => (${JSON.stringify({ status: answer.status, ...(answer.body !== undefined && { body: answer.body }), headers: answer.headers })}) });\n`,
    );
    const result = spawnSync('npx', ['vitest', 'run', ...files], { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
    const out = `${result.stdout}${result.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
    const tests = (/Tests\s+(.*)\n/.exec(out)?.[1]?.trim() ?? 'no summary').replaceAll(' | ', ', ');
    return `| ${id} | ${files.join(', ')} | ${tests} | ${result.status === 0 ? 'NOT caught' : 'caught'} |`;
  } finally {
    restore();
    process.off('SIGINT', interrupted);
  }
}

const ids = process.argv.slice(2);
if (ids.length === 0) throw new Error('usage: npx tsx scripts/example-handler.ts <operationId> [<operationId> …]');
console.log(`commit ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()}`);
console.log('| Operation | Test files run | Their result | Example handler |');
console.log('| --- | --- | --- | --- |');
for (const id of ids) console.log(run(id));
