// What an export writes, in the branch's own words where they say the same: the branch's SUMMARY.md when
// it lists the same tree, no `.gitbook.yaml` added that says only what its absence says, and every page or
// reusable content file written again keeping the branch's text for each block, its front matter and its
// title line that read the same (format/source-blocks.ts). docs/git-sync-operations.md, "What an export rewrites".
import { stableJson } from '../content/block-keys.js';
import type { RevisionContent } from '../content/revision-content.js';
import { readConfig, type WrittenRepository } from './format/index.js';
import { writtenReadRefs } from './format/refs.js';
import { keepSourceText } from './format/source-blocks.js';
import { sameSummary } from './format/summary.js';
import type { TreeFile, WorkRepository } from './work-repository.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Whether the written `.gitbook.yaml` says only what its absence does (the docs at the project directory, README.md, SUMMARY.md, no redirects). */
function isDefaultConfig(files: Map<string, Uint8Array>, projectDirectory: string): boolean {
  const written = readConfig(files, projectDirectory);
  return stableJson([written.structure, written.redirects]) === stableJson([readConfig(new Map(), projectDirectory).structure, {}]);
}

export interface WrittenPlaces {
  /** The content written. */
  content: RevisionContent;
  /** Where `.gitbook.yaml` is, and the docs root and SUMMARY.md it says. */
  configPath: string;
  projectDirectory: string;
  docsRoot: string;
  summaryPath: string;
}

/**
 * Changes `written` (the files an export writes on top of a commit whose files are `branch`) to keep the
 * branch's own text wherever it says the same. The files the export keeps whole are already out of `written`.
 */
export async function inBranchWords(repo: WorkRepository, written: WrittenRepository, branch: Map<string, TreeFile>, places: WrittenPlaces): Promise<void> {
  // A branch without one reads as the defaults: it is not given one that says only them.
  if (!branch.has(places.configPath) && isDefaultConfig(written.files, places.projectDirectory)) written.files.delete(places.configPath);
  const wanted = new Map<string, TreeFile>();
  if (branch.has(places.summaryPath) && written.files.has(places.summaryPath)) wanted.set(places.summaryPath, branch.get(places.summaryPath)!);
  const documents = new Set([...places.content.pages.filter((p) => p.type === 'document').map((p) => p.id), ...places.content.reusableContents.map((r) => r.id)]);
  for (const [id, path] of written.paths) if (documents.has(id) && written.files.has(path) && branch.has(path)) wanted.set(path, branch.get(path)!);
  const refsAt = writtenReadRefs(places.content, written.paths, places.docsRoot);
  for (const [path, bytes] of await repo.readFiles(wanted, '')) {
    const ours = decoder.decode(written.files.get(path)!);
    const theirs = decoder.decode(bytes);
    // The branch's SUMMARY.md stays when it lists what the export would, in its own style.
    if (path === places.summaryPath) {
      if (sameSummary(theirs, ours, path)) written.files.delete(path);
    } else written.files.set(path, encoder.encode(keepSourceText(theirs, ours, path, refsAt(path))));
  }
}
