// Conversation ingestion, and the issues and clusters derived from it.
import { operations } from './operation.js';

export const conversationOperations = operations({});
