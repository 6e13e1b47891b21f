// Space content: revisions, pages, files, links and backlinks (GET /spaces/{spaceId}/content…).
import { operations } from './operation.js';

export const contentOperations = operations({});
