// `.gitbook.yaml`, GitBook's content configuration: where the docs are (`root`, relative to the project
// directory), their first page (`structure.readme`) and table of contents (`structure.summary`), both
// relative to the root, and `redirects` (an old path → the Markdown file, relative to the root).
// Read with the `yaml` library, its values checked; written in the same shape.
import { parse, stringify } from 'yaml';
import { formatLimits } from './limits.js';
import { checkedPath, joinPath } from './paths.js';
import { RepositoryFormatError, type RepositoryFiles, type RepositoryStructure } from './types.js';

export const CONFIG_FILE = '.gitbook.yaml';
export const defaultStructure: RepositoryStructure = { root: '', readme: 'README.md', summary: 'SUMMARY.md' };

export interface RepositoryConfig {
  structure: RepositoryStructure;
  redirects: Record<string, string>;
  /** Where `.gitbook.yaml` is, from the repository root. */
  configPath: string;
  /** The docs root, from the repository root. */
  docsRoot: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A repository file's text: UTF-8, or a RepositoryFormatError naming it. */
export function textOf(bytes: Uint8Array, path: string): string {
  try {
    return decoder.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new RepositoryFormatError(path, 'is not UTF-8 text');
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The configuration of the docs under `projectDirectory` (defaults when there is no `.gitbook.yaml`). */
export function readConfig(files: RepositoryFiles, projectDirectory: string): RepositoryConfig {
  const configPath = joinPath(projectDirectory, CONFIG_FILE);
  const bytes = files.get(configPath);
  if (!bytes) return { structure: defaultStructure, redirects: {}, configPath, docsRoot: projectDirectory };
  if (bytes.length > formatLimits.maxConfigBytes) throw new RepositoryFormatError(configPath, `is larger than ${formatLimits.maxConfigBytes} bytes`);
  let doc: unknown;
  try {
    doc = parse(textOf(bytes, configPath), { maxAliasCount: 10 });
  } catch (error) {
    if (error instanceof RepositoryFormatError) throw error;
    throw new RepositoryFormatError(configPath, `is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (doc === null || doc === undefined) doc = {};
  if (!isRecord(doc)) throw new RepositoryFormatError(configPath, 'must be a mapping (root, structure, redirects)');
  const field = (value: unknown, name: string, fallback: string): string => {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string') throw new RepositoryFormatError(configPath, `${name} must be a path`);
    // `/docs` reads as the project's `docs`, as `./docs` does: the paths are relative to the project.
    return checkedPath(value.replace(/^\/+/, ''), `${configPath} (${name})`);
  };
  const root = field(doc.root, 'root', '');
  const structure = doc.structure ?? {};
  if (!isRecord(structure)) throw new RepositoryFormatError(configPath, 'structure must be a mapping (readme, summary)');
  const readme = field(structure.readme, 'structure.readme', defaultStructure.readme);
  const summary = field(structure.summary, 'structure.summary', defaultStructure.summary);
  if (readme === '' || summary === '') throw new RepositoryFormatError(configPath, 'structure.readme and structure.summary must name files');
  const redirects: Record<string, string> = {};
  if (doc.redirects !== undefined && doc.redirects !== null) {
    if (!isRecord(doc.redirects)) throw new RepositoryFormatError(configPath, 'redirects must map old paths to files');
    for (const [from, to] of Object.entries(doc.redirects)) {
      if (typeof to !== 'string') throw new RepositoryFormatError(configPath, `redirects.${from} must be a path`);
      redirects[from] = checkedPath(to, `${configPath} (redirects.${from})`);
    }
  }
  return { structure: { root, readme, summary }, redirects, configPath, docsRoot: joinPath(projectDirectory, root) };
}

/** The text of `.gitbook.yaml`. */
export function writeConfig(structure: RepositoryStructure, redirects: Record<string, string>): string {
  const doc: Record<string, unknown> = {
    root: structure.root === '' ? './' : `./${structure.root}/`,
    structure: { readme: structure.readme, summary: structure.summary },
  };
  const sorted = Object.keys(redirects).sort();
  if (sorted.length > 0) doc.redirects = Object.fromEntries(sorted.map((k) => [k, redirects[k]]));
  return stringify(doc);
}
