// Section groups of a docs site.
import { operations } from './operation.js';

export const siteSectionGroupOperations = operations({});
