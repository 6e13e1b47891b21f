// OpenAPI specifications of an organization and their versions.
import { operations } from './operation.js';

export const openAPISpecOperations = operations({});
