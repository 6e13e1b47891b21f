// Members of an organization.
import { operations } from './operation.js';

export const memberOperations = operations({});
