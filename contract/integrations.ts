// Integrations, their installations and events.
import { operations } from './operation.js';

export const integrationOperations = operations({});
