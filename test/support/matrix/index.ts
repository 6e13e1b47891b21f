// What the access-matrix test (test/access-matrix.test.ts) needs to call an operation successfully:
// a fresh resource for each path parameter, and a minimal valid body where `{}` is not one. Each area
// adds its own file here and one line below; the matrix itself names no operation.
import type { MatrixFixtures } from './types.js';
import { contentTreeFixtures } from './content-tree.js';
import { integrationFixtures, integrationTargetFixtures } from './integrations.js';
import { integrationListFixtures } from './integration-lists.js';
import { membersTeamsFixtures } from './members-teams.js';
import { openAPIFixtures } from './openapi.js';
import { ssoFixtures } from './sso.js';
import { conversationFixtures } from './conversations.js';
import { translationFixtures } from './translations.js';
import { contentFixtures } from './content.js';
import { headlessReadFixtures } from './headless-reads.js';
import { siteFixtures } from './sites.js';
import { changeRequestReviewFixtures } from './change-request-reviews.js';
import { permissionFixtures } from './permissions.js';
import { downloadFixtures } from './downloads.js';
import { gitSyncFixtures } from './git-sync.js';
import { headlessFixtures } from './headless.js';

export type { MatrixFixtures, MatrixWorld } from './types.js';

// members-teams first: its organizationId fixture (the same organization) also saves agent instructions.
// integrationTargetFixtures before content-tree and sites: its spaceId and siteId wrap theirs.
// headlessReadFixtures before content: its pageId and fileId (in a revision chosen before) wrap theirs.
export const matrixFixtures: MatrixFixtures[] = [integrationTargetFixtures, membersTeamsFixtures, contentTreeFixtures, ssoFixtures, integrationFixtures, openAPIFixtures, headlessReadFixtures, contentFixtures, siteFixtures, translationFixtures, conversationFixtures, changeRequestReviewFixtures, integrationListFixtures, permissionFixtures, downloadFixtures, gitSyncFixtures, headlessFixtures];
