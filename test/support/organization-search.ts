// What the search tests share: changes merged through a change request, a space made of many pages in one
// change request, and every answer of a search followed through its `next` cursors.
import { expect } from 'vitest';
import type { Account } from './harness.js';

/** Applies `changes` to the space through a merged change request; the ids of the pages they name. */
export async function mergeChanges(admin: Account, spaceId: string, changes: unknown[]): Promise<string[]> {
  const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`);
  expect(cr.status).toBe(201);
  const res = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, { changes });
  expect(res.status).toBe(200);
  expect((await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  return res.body.changes.map((c: { page?: { id: string } }) => c.page?.id);
}

/** Merges pages `[title, markdown]` into a new space (in batches of 50); returns its id and its pages' ids. */
export async function spaceWith(admin: Account, title: string, pages: [string, string][]) {
  const space = await admin.api.post(`/orgs/${admin.organizationId}/spaces`, { title });
  expect(space.status).toBe(201);
  const cr = await admin.api.post(`/spaces/${space.body.id}/change-requests`);
  expect(cr.status).toBe(201);
  const ids: string[] = [];
  // A batch holds at most 50 changes.
  for (let start = 0; start < pages.length; start += 50) {
    const res = await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: pages.slice(start, start + 50).map(([t, markdown]) => ({ operation: 'insert_page', title: t, document: { markdown } })),
    });
    expect(res.status).toBe(200);
    ids.push(...res.body.changes.map((c: { page: { id: string } }) => c.page.id));
  }
  expect((await admin.api.post(`/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  return { spaceId: space.body.id as string, pages: ids };
}

export interface SearchAnswer {
  items: { id: string; score: number; pages: { id: string; rank: number; score: number }[] }[];
  count: number;
  next?: { page: string };
}

/** Every answer of the organization search for `query`, following `next` to the end (at most `most` answers). */
export async function allAnswers(admin: Account, query: string, limit: number | undefined, most: number): Promise<SearchAnswer[]> {
  const answers: SearchAnswer[] = [];
  let page: string | undefined;
  do {
    const res = await admin.api.get(`/orgs/${admin.organizationId}/search`, { query, ...(limit !== undefined && { limit }), ...(page && { page }) });
    expect(res.status).toBe(200);
    answers.push(res.body);
    page = res.body.next?.page;
    expect(answers.length).toBeLessThanOrEqual(most);
  } while (page);
  return answers;
}
