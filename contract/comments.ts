// Comments of a space and their replies.
import { operations } from './operation.js';

export const commentOperations = operations({});
