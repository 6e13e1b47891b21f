// `npm run api:release`: records the generated document (generated/openapi.json) as the released one
// (api/released/openapi.json), which the breaking-change gate of `npm run lint` compares against, and
// appends its changes, classified, to api/CHANGELOG.md. Refuses a release whose info.version was not
// raised, and a breaking one whose major was not (scripts/api-diff.ts says what breaks).
import { appendFileSync, copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describeDiff, gateProblem, generatedDocument, releasedDocument } from './api-diff.js';

export const changelog = path.resolve(import.meta.dirname, '../api/CHANGELOG.md');

interface Files {
  released: string;
  generated: string;
  changelog: string;
}

const versionOf = (file: string) => String(JSON.parse(readFileSync(file, 'utf8')).info?.version);

/** Releases `generated` over `released`, or throws saying why not; returns the changelog entry. */
export function release(files: Files = { released: releasedDocument, generated: generatedDocument, changelog }, date = new Date()): string {
  const { diff, problem } = gateProblem(files.released, files.generated);
  if (diff.changes.length === 0) throw new Error('nothing to release: the generated document is the released one');
  if (problem) throw new Error(problem);
  const [from, to] = [versionOf(files.released), versionOf(files.generated)];
  if (from === to) throw new Error(`info.version is still ${to}: raise it (contract/index.ts; minor for additions, major for breaking changes) and generate`);
  const entry = [`## ${to} (${date.toISOString().slice(0, 10)}, from ${from})`, '', ...describeDiff(diff), '', ''].join('\n');
  appendFileSync(files.changelog, entry);
  copyFileSync(files.generated, files.released);
  return entry;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  try {
    console.log(release());
  } catch (err) {
    console.error(`api:release: ${(err as Error).message}`);
    process.exit(1);
  }
}
