// Full-text search of a space and of an organization.
import { operations } from './operation.js';

export const searchOperations = operations({});
