// Teams of an organization and their members.
import { operations } from './operation.js';

export const teamOperations = operations({});
