// Every list case of test/query-budget.test.ts, by area.
import { contentLists } from './content.js';
import { integrationLists } from './integrations.js';
import { organizationLists } from './organization.js';
import { permissionAndInviteLists } from './permissions.js';
import { siteLists } from './sites.js';

export type { ListCase, ListRead } from './types.js';

export const listCases = [...contentLists, ...organizationLists, ...siteLists, ...integrationLists, ...permissionAndInviteLists];
