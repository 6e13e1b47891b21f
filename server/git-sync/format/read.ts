import type { ImportedContent, ReadOptions, RepositoryFiles } from './types.js';

export function readRepository(_files: RepositoryFiles, _options: ReadOptions = {}): ImportedContent {
  throw new Error('readRepository: the reader lands in the next commit of branch git-format');
}
