// Change requests of a space, and the batch update of their content.
import { operations } from './operation.js';

export const changeRequestOperations = operations({});
