// Helpers shared by the docs-site tests: spaces, sites, sections and site spaces made through the API.
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import type { Account } from './support/harness.js';

/** A new space of the account's organization, titled `title`. */
export async function newSpace(account: Account, title = 'Space'): Promise<string> {
  const res = await account.api.post(`/orgs/${account.organizationId}/spaces`, { title });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** The API path of a site of the account's organization. */
export function sitePath(account: Account, siteId: string): string {
  return `/orgs/${account.organizationId}/sites/${siteId}`;
}

/** A new site created with `body`; returns the created site. */
export async function newSite(account: Account, body: object = {}) {
  const res = await account.api.post(`/orgs/${account.organizationId}/sites`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A new section of a site over a new space titled `title`; returns the section. */
export async function newSection(account: Account, siteId: string, title: string) {
  const res = await account.api.post(`${sitePath(account, siteId)}/sections`, { spaceId: await newSpace(account, title), title });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A new site space over a new space titled `title`, in `sectionId` (or the default place). */
export async function newSiteSpace(account: Account, siteId: string, title: string, sectionId?: string) {
  const res = await account.api.post(`${sitePath(account, siteId)}/site-spaces`, { spaceId: await newSpace(account, title), sectionId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** An adaptive schema with a signed claim (`isBetaUser`) and an unsigned one (`unsigned.prefersDark`). */
export const betaClaimsSchema = {
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean' },
    unsigned: { type: 'object', properties: { prefersDark: { type: 'boolean' } }, additionalProperties: false },
  },
  additionalProperties: false,
};

/** Sets the site's adaptive schema and turns adaptive content on. */
export async function enableAdaptiveContent(account: Account, siteId: string, jsonSchema: object = betaClaimsSchema) {
  expect((await account.api.put(`${sitePath(account, siteId)}/adaptive-schema`, { jsonSchema })).status).toBe(200);
  expect((await account.api.patch(sitePath(account, siteId), { adaptiveContent: { enabled: true } })).status).toBe(200);
}

/** A visitor token (JWT, HS256) with `claims`, signed with the site's visitor key `key`. */
export function signVisitorToken(claims: Record<string, unknown>, key: string, expiresIn: string | number = '1h'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expiresIn).sign(new TextEncoder().encode(key));
}

/** Applies `changes` in a new change request of the space (returned unmerged, with the write's answer). */
export async function draftChanges(admin: Account, spaceId: string, changes: object[]) {
  const cr = await admin.api.post(`/spaces/${spaceId}/change-requests`);
  expect(cr.status).toBe(201);
  const content = await admin.api.post(`/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, { changes });
  return { id: cr.body.id as string, content };
}

/** Opens a change request on the space, applies `changes` and merges it. */
export async function mergeChanges(admin: Account, spaceId: string, changes: object[]): Promise<void> {
  const { id, content } = await draftChanges(admin, spaceId, changes);
  expect(content.status, JSON.stringify(content.body)).toBe(200);
  const merged = await admin.api.post(`/spaces/${spaceId}/change-requests/${id}/merge`);
  expect(merged.status, JSON.stringify(merged.body)).toBe(200);
}
