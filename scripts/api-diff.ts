// The breaking-change gate. `npm run api:diff -- OLD.json NEW.json` prints the differences between two
// published documents, classified as breaking (major), additive (minor) or neither (patch), and exits 1
// when one is breaking. `--gate` compares the generated document with the last released one
// (api/released/openapi.json) and fails on a breaking change unless info.version's major was raised
// (run by `npm run lint`). The rating is Redocly CLI's `diff` (pinned in package.json, runs offline) with
// its recommended diff rules (api/redocly-diff.yaml).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const releasedDocument = path.join(root, 'api/released/openapi.json');
export const generatedDocument = path.join(root, 'generated/openapi.json');

export type Impact = 'major' | 'minor' | 'patch';

export interface Change {
  impact: Impact;
  kind: string;
  /** JSON pointer of the change in the document (`#/paths/~1spaces~1{spaceId}/get/...`). */
  path: string;
  /** What the diff rules say of it (empty for a change no rule names, e.g. an added path). */
  messages: string[];
}

export interface Diff {
  bump: Impact | 'none';
  changes: Change[];
}

interface RedoclyChange {
  path: string;
  kind: string;
  impact: Impact;
  verdicts: { ruleId: string; impact: Impact; message: string }[];
}

/**
 * A rule Redocly rates otherwise: an `anyOf` branch added to a response schema widens what the server may
 * answer, like a response enum gaining a value (minor, see api/redocly-diff.yaml), where Redocly rates
 * every combinator change major. Removed branches, and branches of requests, keep Redocly's rating.
 */
function widensAnswer(c: RedoclyChange): boolean {
  return c.kind === 'added' && c.path.includes('/responses/') && c.verdicts.length > 0 && c.verdicts.every((v) => v.ruleId === 'schema-combinator-changed' && v.message.startsWith('`anyOf` subschema'));
}

/** Keywords that describe a schema without constraining it. */
const annotations = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'default', '$comment']);

/**
 * The document with `allOf: [X, { description }]` written as X with its description: the generator wraps
 * a `$ref` in `allOf` only to describe it, and unwrapping it changes nothing a client sees, where Redocly
 * rates the removed `allOf` as breaking.
 */
export function unwrapDescribedRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(unwrapDescribedRefs);
  if (node === null || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, unwrapDescribedRefs(v)])) as Record<string, any>;
  if (!Array.isArray(out.allOf)) return out;
  const onlyAnnotations = (s: Record<string, unknown>) => Object.keys(s).every((k) => annotations.has(k));
  const constraining = (out.allOf as Record<string, any>[]).filter((s) => !onlyAnnotations(s));
  if (constraining.length !== 1) return out;
  const { allOf, ...rest } = out;
  const notes = Object.assign({}, ...(allOf as Record<string, any>[]).filter(onlyAnnotations));
  return { ...constraining[0], ...notes, ...rest };
}

type Json = Record<string, any>;

/** The node of `doc` at a JSON pointer as Redocly writes them (`#/paths/~1a/post/...`), following `$ref`s on the way. */
function nodeAt(doc: Json, pointer: string): unknown {
  const resolve = (node: unknown): unknown => {
    for (let hops = 0; hops < 20 && node && typeof node === 'object' && typeof (node as Json).$ref === 'string'; hops++) {
      node = nodeAt(doc, (node as Json).$ref);
    }
    return node;
  };
  let node: unknown = doc;
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    if (raw === '$ref') continue;
    node = resolve(node);
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Json)[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return resolve(node);
}

/** `doc` with one operation whose request body is `schema` (and its components, for the schema's `$ref`s). */
function requestDocument(doc: Json, schema: unknown): Json {
  const operation = { operationId: 'widening', requestBody: { required: true, content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok' } } };
  return { openapi: doc.openapi, info: doc.info, components: doc.components, paths: { '/widening': { post: operation } } };
}

/**
 * A request schema that became an `anyOf` (Redocly rates every combinator change major) accepts all it
 * accepted when one of its branches does: each branch is compared with the old schema by the same diff (in
 * a document of one operation taking it), and the change is additive when one of them is at most additive.
 */
function widensRequest(c: RedoclyChange, oldDoc: Json, newDoc: Json): boolean {
  const becameAnyOf = c.kind === 'added' && c.path.includes('/requestBody/') && c.path.endsWith('/anyOf');
  if (!becameAnyOf || c.verdicts.length === 0 || !c.verdicts.every((v) => v.ruleId === 'schema-combinator-changed')) return false;
  const before = nodeAt(oldDoc, c.path.slice(0, -'/anyOf'.length));
  const branches = nodeAt(newDoc, c.path);
  if (!before || !Array.isArray(branches)) return false;
  return branches.some((branch) => {
    const report = redoclyDiff(requestDocument(oldDoc, before), requestDocument(newDoc, branch));
    return !report.changes.some((change) => change.path.startsWith('#/paths/') && change.impact === 'major');
  });
}

/** Redocly's report of the differences between two documents; throws when Redocly cannot read them. */
function redoclyDiff(oldDoc: Json, newDoc: Json): { bump?: Impact | 'none'; changes: RedoclyChange[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'api-diff-'));
  const [oldFile, newFile] = [oldDoc, newDoc].map((doc, i) => {
    const out = path.join(dir, `${i === 0 ? 'old' : 'new'}.json`);
    writeFileSync(out, JSON.stringify(doc));
    return out;
  });
  const run = spawnSync(
    path.join(root, 'node_modules/.bin/redocly'),
    ['diff', oldFile, newFile, '--config', path.join(root, 'api/redocly-diff.yaml'), '--format=json', '--fail-on=none'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  rmSync(dir, { recursive: true, force: true });
  const start = run.stdout.indexOf('{');
  if (run.status !== 0 || start < 0) throw new Error(`redocly diff failed (${run.status}): ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout.slice(start)) as { bump?: Impact | 'none'; changes: RedoclyChange[] };
}

/** Compares two documents with `redocly diff`, with the ratings above; throws when Redocly cannot read them. */
export function diffDocuments(oldPath: string, newPath: string): Diff {
  const [oldDoc, newDoc] = [oldPath, newPath].map((file) => unwrapDescribedRefs(JSON.parse(readFileSync(file, 'utf8'))) as Json);
  const report = redoclyDiff(oldDoc, newDoc);
  const changes = report.changes.map((c) => ({
    impact: widensAnswer(c) || widensRequest(c, oldDoc, newDoc) ? 'minor' : c.impact,
    kind: c.kind,
    path: c.path,
    messages: c.verdicts.map((v) => `${v.ruleId}: ${v.message}`),
  }));
  const order: Impact[] = ['major', 'minor', 'patch'];
  return { bump: order.find((i) => changes.some((c) => c.impact === i)) ?? 'none', changes };
}

const labels: Record<Impact, string> = { major: 'breaking', minor: 'additive', patch: 'neither (documentation, narrowed answers)' };

/** The changes as Markdown lines, breaking first (only those of the given impacts). */
export function describeDiff(diff: Diff, impacts: Impact[] = ['major', 'minor', 'patch']): string[] {
  return impacts.flatMap((impact) => {
    const changes = diff.changes.filter((c) => c.impact === impact);
    if (changes.length === 0) return [];
    const line = (c: Change) => `- ${c.kind} \`${c.path}\`${c.messages.length ? `: ${c.messages.join('; ')}` : ''}`;
    return [`${changes.length} ${labels[impact]}:`, ...changes.map(line)];
  });
}

const majorOf = (file: string) => Number(String(JSON.parse(readFileSync(file, 'utf8')).info?.version ?? '0').split('.')[0]);

/** Why the generated document may not be published as it is (a breaking change without a new major), or undefined. */
export function gateProblem(oldFile = releasedDocument, newFile = generatedDocument): { diff: Diff; problem?: string } {
  const diff = diffDocuments(oldFile, newFile);
  if (diff.bump !== 'major') return { diff };
  if (majorOf(newFile) > majorOf(oldFile)) return { diff };
  return {
    diff,
    problem:
      `breaking changes against the released document (${path.relative(root, oldFile)}): make them additive, or raise ` +
      "info.version's major (contract/index.ts) and record the release with `npm run api:release`",
  };
}

function main(args: string[]) {
  if (args[0] === '--gate') {
    const { diff, problem } = gateProblem();
    for (const line of describeDiff(diff, ['major'])) console.log(line); // the others: npm run api:diff -- api/released/openapi.json generated/openapi.json
    const counts = (['major', 'minor', 'patch'] as Impact[]).map((i) => `${diff.changes.filter((c) => c.impact === i).length} ${labels[i].split(' ')[0]}`);
    console.log(`api gate: ${counts.join(', ')} change(s) since the released document (bump ${diff.bump})`);
    if (problem) {
      console.error(`api gate: ${problem}`);
      process.exit(1);
    }
    return;
  }
  const [oldFile, newFile] = args;
  if (!oldFile || !newFile) {
    console.error('usage: npm run api:diff -- OLD.json NEW.json   (or --gate: released vs generated)');
    process.exit(2);
  }
  const diff = diffDocuments(oldFile, newFile);
  for (const line of describeDiff(diff)) console.log(line);
  console.log(`${diff.changes.length} change(s), bump ${diff.bump}`);
  if (diff.bump === 'major') process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main(process.argv.slice(2));
