// Type-level tests of the typed client: `tsc --noEmit` (npm run lint) checks this file, so a wrong path,
// body or parameter that compiled would fail the lint (an unused `@ts-expect-error` is an error). The
// calls are never made: they sit in a function that no test runs.
import { describe, expectTypeOf, it } from 'vitest';
import { createClient, type ApiError } from '../client/index.js';
import type { components } from '../generated/types.js';

const api = createClient({ baseUrl: 'http://127.0.0.1:1/v1', token: 'unused' });

async function calls() {
  const organizationId = 'org_x';
  // A correct call compiles; its reply is the contract's Space, its error the error body.
  const created = await api.POST('/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title: 'Typed' } });
  expectTypeOf(created.data).toEqualTypeOf<components['schemas']['Space'] | undefined>();
  expectTypeOf(created.error!.error.message).toBeString();
  expectTypeOf(created.error!).toMatchTypeOf<ApiError>();

  // @ts-expect-error a title must be a string
  await api.POST('/orgs/{organizationId}/spaces', { params: { path: { organizationId } }, body: { title: 5 } });
  // (An unknown extra property is not a compile error: openapi-fetch's generic options defeat TypeScript's
  // excess-property check. The server refuses it at run time, 400 naming the field.)
  // @ts-expect-error editMode is live or locked
  await api.PATCH('/spaces/{spaceId}', { params: { path: { spaceId: 's' } }, body: { editMode: 'frozen' } });
  // @ts-expect-error the path parameter is required
  await api.GET('/spaces/{spaceId}', { params: { path: {} } });
  // @ts-expect-error no such path
  await api.GET('/spacez');
  // @ts-expect-error a team needs a title
  await api.PUT('/orgs/{organizationId}/teams', { params: { path: { organizationId } }, body: { members: [] } });
}

describe('typed client types', () => {
  it('compiles correct calls and refuses wrong ones (checked by tsc)', () => {
    expectTypeOf(calls).returns.resolves.toBeVoid();
  });
});
