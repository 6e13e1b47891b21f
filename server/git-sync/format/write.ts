import type { RevisionContent } from '../../content/revision-content.js';
import type { WriteOptions, WrittenRepository } from './types.js';

export function writeRepository(_content: RevisionContent, _fileBytes: ReadonlyMap<string, Uint8Array>, _options: WriteOptions = {}): WrittenRepository {
  throw new Error('writeRepository: the writer lands in the next commit of branch git-format');
}
