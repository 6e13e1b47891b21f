// SAML single sign-on providers.
import { operations } from './operation.js';

export const ssoOperations = operations({});
