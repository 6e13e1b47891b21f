// Translations of spaces.
import { operations } from './operation.js';

export const translationOperations = operations({});
