// How much of a repository the format reads: a repository over these is refused with the path that went
// over (RepositoryFormatError), before anything is parsed, so a huge tree costs no more than counting it.
export const formatLimits = {
  /** Files under the docs root (pages, assets, configuration). */
  maxFiles: 10_000,
  /** Bytes of all the files under the docs root together. */
  maxTotalBytes: 256 * 1024 * 1024,
  /** Bytes of one Markdown file (a page or SUMMARY.md). */
  maxMarkdownBytes: 1024 * 1024,
  /**
   * Bytes of one asset (GIT_SYNC_MAX_ASSET_BYTES): 100 MiB, the most GitBook takes for an uploaded file and
   * GitHub for a file of a repository, so a real docs repository's GIF screenshots and videos come through.
   * Assets stream from the pack to the file store: this bounds disk and store, not memory.
   */
  maxAssetBytes: 100 * 1024 * 1024,
  /** Bytes of `.gitbook.yaml`. */
  maxConfigBytes: 64 * 1024,
  /** Depth of the page tree (SUMMARY.md nesting or directories). */
  maxDepth: 32,
};

/** Why an asset over the cap is refused, naming the setting that raises it. */
export const assetTooLarge = (maxBytes: number) => `is larger than ${maxBytes} bytes, the most an asset may have (GIT_SYNC_MAX_ASSET_BYTES)`;
