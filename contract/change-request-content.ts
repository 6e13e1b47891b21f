// Content of a change request (GET /spaces/{spaceId}/change-requests/{changeRequestId}/content…).
import { operations } from './operation.js';

export const changeRequestContentOperations = operations({});
