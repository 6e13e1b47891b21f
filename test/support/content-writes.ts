// Content written as a client would: a change request, its batch of changes, the merge. Shared by the tests
// of revision storage and of the headless reads, which each need content in a space before they read it.
import { expect } from 'vitest';
import { gitbookDocumentErrors } from './gitbook-document.js';
import type { Account } from './harness.js';

type Answer = { status: number; body: any };

/** The body of an answer, after checking its status (the body is the failure message). */
export async function ok(res: Promise<Answer> | Answer, status = 200): Promise<any> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

/** Applies `changes` to the space through a change request, merged; answers what the changes did. */
export async function mergeChanges(admin: Account, spaceId: string, changes: unknown[]): Promise<any> {
  const cr = await ok(admin.api.post(`/spaces/${spaceId}/change-requests`, { subject: 'Edit' }), 201);
  const done = await ok(admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes }));
  await ok(admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/merge`));
  return done;
}

/** A page of the space as the API reads it, its Document (format `document`) checked against GitBook's JSONDocument. */
export async function readCheckedPage(admin: Account, spaceId: string, pageId: string, format: 'document' | 'markdown' = 'document'): Promise<any> {
  const page = await ok(admin.api.get(`/spaces/${spaceId}/content/page/${pageId}`, { format }));
  if (format === 'document') expect(gitbookDocumentErrors(page.document)).toBeUndefined();
  return page;
}
