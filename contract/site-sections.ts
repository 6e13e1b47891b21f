// Sections of a docs site.
import { operations } from './operation.js';

export const siteSectionOperations = operations({});
