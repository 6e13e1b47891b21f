// The shapes the repository format reads and writes, and its error. Kept apart from index.ts so the
// modules of the format import them without importing each other through the index.
import type { RevisionContent } from '../../content/revision-content.js';

/** `.gitbook.yaml`'s paths: the docs root (relative to the project directory) and, relative to it, the first page and the table of contents. */
export interface RepositoryStructure {
  root: string;
  readme: string;
  summary: string;
}

/** A repository's tree: POSIX path relative to the repository root → bytes. */
export type RepositoryFiles = Map<string, Uint8Array>;

export interface ReadOptions {
  /** `repoProjectDirectory`: the sub-directory holding the docs ('' or undefined: the root). */
  projectDirectory?: string;
  /** The space's current content: pages and files found at the same repository path keep their ids. */
  previous?: RevisionContent;
  /** Where each previous page/file was last read from or written to (id → path), from git metadata. */
  previousPaths?: Map<string, string>;
  /** The clock of new pages' `createdAt`/`updatedAt` (default: now). */
  now?: Date;
  /** How many files and bytes the docs, and one asset, may hold (default formatLimits'; an operation passes its configured ones). */
  limits?: { maxFiles: number; maxTotalBytes: number; maxAssetBytes?: number };
  /** Files whose bytes `files` does not hold (streamed to the file store as they were read): their size and image dimensions. */
  assets?: ReadonlyMap<string, { size: number; dimensions?: { width: number; height: number } }>;
}

export interface ImportedContent {
  /** Pages (flat, parent + position order keys) and files; variables and reusable contents of `previous`. */
  content: RevisionContent;
  /** File id → bytes (the assets under `.gitbook/assets/`). */
  fileBytes: Map<string, Uint8Array>;
  /** Page id / file id → repository path it came from (from the repository root). */
  paths: Map<string, string>;
  /** From `.gitbook.yaml`: old path → page file path (relative to the docs root), as written; the content keeps those to pages as `redirects` (old path → page id). */
  redirects: Record<string, string>;
  /** `.gitbook.yaml`'s root and structure as read (defaults when absent): an export passes them back to write where it read. */
  structure: RepositoryStructure;
  /** What was skipped and why, each naming its path (a SUMMARY.md entry naming no file, …). */
  warnings: string[];
}

export interface WriteOptions {
  /** `repoProjectDirectory`: the sub-directory the docs are written under ('' or undefined: the root). */
  projectDirectory?: string;
  /** Where each page/file was last read from or written to (id → path): a page keeps its path when it can. */
  previousPaths?: Map<string, string>;
  /** Where the docs go and the names of the first page and the table of contents (default: the root, README.md, SUMMARY.md). */
  structure?: RepositoryStructure;
  /** Written to `.gitbook.yaml` (old path → file, relative to the docs root), over the content's own redirects to the same paths. */
  redirects?: Record<string, string>;
}

export interface WrittenRepository {
  /** The files of the docs (with `.gitbook.yaml`), from the repository root. */
  files: RepositoryFiles;
  /** Page id / file id → repository path written. */
  paths: Map<string, string>;
  /** What the files say that names nothing (an include of no reusable content of the space), each naming its path. */
  warnings: string[];
}

/**
 * A repository that cannot be read (or content that cannot be written) in GitBook's format: `path` names
 * the file (from the repository root), `reason` says why. The operations turn it into a 400 or a failed
 * job naming the file.
 */
export class RepositoryFormatError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path ? `${path}: ${reason}` : reason);
    this.name = 'RepositoryFormatError';
  }
}
