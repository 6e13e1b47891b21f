// Published docs sites, their adaptive schema and publication.
import { operations } from './operation.js';

export const siteOperations = operations({});
