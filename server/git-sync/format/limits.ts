// How much of a repository the format reads: a repository over these is refused with the path that went
// over (RepositoryFormatError), before anything is parsed, so a huge tree costs no more than counting it.
import { FILE_MAX_BYTES } from '../../content/file-bytes.js';

export const formatLimits = {
  /** Files under the docs root (pages, assets, configuration). */
  maxFiles: 10_000,
  /** Bytes of all the files under the docs root together. */
  maxTotalBytes: 256 * 1024 * 1024,
  /** Bytes of one Markdown file (a page or SUMMARY.md). */
  maxMarkdownBytes: 1024 * 1024,
  /** Bytes of one asset: the most a space's file may have. */
  maxAssetBytes: FILE_MAX_BYTES,
  /** Bytes of `.gitbook.yaml`. */
  maxConfigBytes: 64 * 1024,
  /** Depth of the page tree (SUMMARY.md nesting or directories). */
  maxDepth: 32,
};
