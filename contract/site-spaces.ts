// Site spaces: the spaces a docs site publishes.
import { operations } from './operation.js';

export const siteSpaceOperations = operations({});
