// Agent instructions of an organization.
import { operations } from './operation.js';

export const agentInstructionOperations = operations({});
