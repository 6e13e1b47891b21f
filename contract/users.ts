import { ex } from './examples.js';
import { access } from './access.js';
import { operations } from './operation.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const userExample = {
  object: 'user' as const,
  id: ex.userId,
  displayName: 'Ada Lovelace',
  email: 'ada@example.com',
  photoURL: 'https://avatars.example.com/u/ada.png',
  urls: { location: `${ex.baseUrl}/v1/users/${ex.userId}` },
};

export const User = z
  .object({
    object: z.literal('user'),
    id: z.string(),
    displayName: z.string(),
    email: z.string().optional(),
    photoURL: z.string().openapi(conditional("URL of the user's profile picture; absent when none is known (the API creates no users: `npm run admin -- create-user --photo-url` sets one).")).optional(),
    urls: z.object({ location: z.url() }),
  })
  .openapi('User', { description: 'A person using the service.', example: userExample });

export const userOperations = operations({
  getAuthenticatedUser: {
    method: 'get',
    path: '/user',
    tag: 'users',
    summary: 'Get the authenticated user',
    description: 'Returns the user the access token of the request belongs to.',
    responses: { 200: { description: 'The authenticated user.', schema: User, example: userExample } },
    access: access.caller(),
    statements: 1,
  },
  getUserById: {
    method: 'get',
    path: '/users/{userId}',
    tag: 'users',
    summary: 'Get a user',
    description:
      'Returns a user by id: the caller themself, or someone who is a member (guests included) of an organization in which ' +
      'the caller is a member other than a guest (an installation: of the organization it is installed in). Anyone else, ' +
      'and an unknown id, is not found (404): a guest or an outsider learns nothing of the people of an organization.',
    params: z.object({ userId: z.string().min(1).max(128).openapi({ description: 'The id of the user.', example: ex.userId }) }),
    responses: { 200: { description: 'The user.', schema: User, example: userExample } },
    errors: [404],
    access: access.caller(),
    statements: 1,
  },
});
