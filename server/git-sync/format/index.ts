// GitBook's Git Sync repository format, both ways, as a pure module (no network, no database): a space's
// content ⇄ the files of a repository (`.gitbook.yaml`, `SUMMARY.md`, one Markdown file per page with
// front matter, `.gitbook/assets/`). docs/git-sync.md describes the format and the decisions taken.
export { RepositoryFormatError, type ImportedContent, type ReadOptions, type RepositoryFiles, type RepositoryStructure, type WriteOptions, type WrittenRepository } from './types.js';
export { readRepository } from './read.js';
export { writeRepository } from './write.js';
export { assetTooLarge, formatLimits } from './limits.js';
export { CONFIG_FILE, readConfig } from './config.js';
export { joinPath } from './paths.js';
