// What test/query-budget.test.ts needs to hold a list at 1 and at 50 items: for each `list*` operation, a
// `fill` that makes exactly `n` items of one list for a new organization's admin and says where to read it.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Account, Harness } from '../harness.js';

/** Where a filled list is read: its path under /v1, and any query beyond `limit`. */
export interface ListRead {
  path: string;
  query?: Record<string, string>;
}

export interface ListCase {
  operationId: string;
  /** Told apart when one list has several cases (e.g. invites of each kind of target). */
  variant?: string;
  /** Makes `n` items of the list for `admin` (a new organization's admin) and returns where to read them. */
  fill(h: Harness, admin: Account, n: number): Promise<string | ListRead>;
}

/** Sends a create request and fails the test unless it answered 200 or 201. */
export async function created(admin: Account, path: string, body: unknown = {}, method: 'post' | 'put' = 'post'): Promise<any> {
  const res = await admin.api[method](path, body);
  expect([200, 201], `${method.toUpperCase()} ${path} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`).toContain(res.status);
  return res.body;
}

/** Sends a request and fails the test unless it answered `status`. */
export async function answered(status: number, request: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const res = await request;
  expect(res.status, `${what} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`).toBe(status);
  return res.body;
}

export async function times(n: number, make: (k: number) => Promise<unknown>): Promise<void> {
  for (let k = 0; k < n; k++) await make(k);
}

/** `n` values made one after the other. */
export async function each<T>(n: number, make: (k: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let k = 0; k < n; k++) made.push(await make(k));
  return made;
}

/** A name no other case of the run uses (integrations and SAML entity ids are unique across organizations). */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** A letters-only word for `k` (0 → "ba"): distinct words for the text tokenizers, which drop digits. */
export function wordFor(k: number): string {
  const letters = 'bcdfghjklmnpqrstvwxz';
  let word = '';
  let rest = k;
  do {
    word += letters[rest % letters.length];
    rest = Math.floor(rest / letters.length);
  } while (rest > 0);
  return `${word}a${word}o`;
}

/** A new space of the admin's organization. */
export async function newSpace(admin: Account): Promise<string> {
  return (await created(admin, `/orgs/${admin.organizationId}/spaces`, {})).id;
}

// The most changes one content update takes.
const CHANGES_PER_UPDATE = 50;

/**
 * An open change request of the space holding `changes`, sent in as few updates as the body allows;
 * `made` joins what each update answered (compat=false: the ids of what it made).
 */
export async function changeRequestWith(admin: Account, spaceId: string, changes: unknown[]): Promise<{ id: string; made: any }> {
  const cr = await created(admin, `/spaces/${spaceId}/change-requests`, { subject: 'Budget' });
  const made = { changes: [] as any[], insertedFiles: [] as any[] };
  for (let start = 0; start < changes.length; start += CHANGES_PER_UPDATE) {
    const body = { changes: changes.slice(start, start + CHANGES_PER_UPDATE) };
    const answer = await answered(200, admin.api.post(`/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, body), 'updateChangeRequestContent');
    made.changes.push(...answer.changes);
    made.insertedFiles.push(...(answer.insertedFiles ?? []));
  }
  return { id: cr.id, made };
}

/** Merges `changes` into the space through a change request; returns what the change request made. */
export async function mergedInto(admin: Account, spaceId: string, changes: unknown[]): Promise<any> {
  const { id, made } = await changeRequestWith(admin, spaceId, changes);
  await answered(200, admin.api.post(`/spaces/${spaceId}/change-requests/${id}/merge`), 'mergeChangeRequest');
  return made;
}

/** `n` top-level pages, titled by their index, each with `markdown(k)`. */
export function pages(n: number, markdown: (k: number) => string = (k) => `Page ${k}.`): unknown[] {
  return Array.from({ length: n }, (_, k) => ({ operation: 'insert_page', title: `Page ${k}`, document: { markdown: markdown(k) } }));
}

// The most files one `insert_files` change takes.
const FILES_PER_CHANGE = 20;

/** Changes inserting `n` small text files named `file-<k>.txt`. */
export function files(n: number): unknown[] {
  const all = Array.from({ length: n }, (_, k) => ({ name: `file-${k}.txt`, contentType: 'text/plain', base64: 'aGk=' }));
  const changes: unknown[] = [];
  for (let start = 0; start < n; start += FILES_PER_CHANGE) changes.push({ operation: 'insert_files', files: all.slice(start, start + FILES_PER_CHANGE) });
  return changes;
}
