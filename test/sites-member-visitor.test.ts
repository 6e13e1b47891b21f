// Members recognised on sites: the `serviceVisitorClaims` token of a member's ping opens the visitor-auth
// sites of the member's organization, as a visitor token signed with the site's key would; a token of
// another organization, or one tampered with, opens nothing.
import { describe, expect, it } from 'vitest';
import { useHarness, type Account } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { newSite } from './sites-support.js';

const h = useHarness();

async function ping(account: Account, organizationId: string): Promise<string> {
  const res = await account.api.post(`/orgs/${organizationId}/ping`);
  expect(res.status).toBe(200);
  return res.body.serviceVisitorClaims;
}

async function privateSite(admin: Account) {
  const space = await spaceWithPages(admin, 'Internal', [{ title: 'Runbook', markdown: 'Members only.' }]);
  const site = await newSite(admin, { title: 'Internal docs', visibility: 'visitor-auth', spaces: [space] });
  return (await publish(admin, site.id)).urls.published as string;
}

describe('serviceVisitorClaims', () => {
  it("opens the organization's visitor-auth sites with the member's claims", async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const url = await privateSite(admin);
    expect((await open(h.current, `${url}/internal/runbook`)).status).toBe(401);

    const token = await ping(reader, admin.organizationId);
    const entry = await open(h.current, `${url}/internal/runbook?jwt_token=${encodeURIComponent(token)}`);
    expect(entry.status).toBe(302);
    const cookies = entry.headers['set-cookie'] as unknown as string[];
    const page = await open(h.current, `${url}/internal/runbook`, cookies);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Members only.');
    expect((await open(h.current, `${url}/internal/runbook.md`, cookies)).status).toBe(200);
  });

  it('refuses a member token of another organization, and a tampered one', async () => {
    const admin = await h.current.newAdmin();
    const url = await privateSite(admin);
    const outsider = await h.current.newAdmin();
    const foreign = await ping(outsider, outsider.organizationId);
    const withForeign = await open(h.current, `${url}/internal/runbook?jwt_token=${encodeURIComponent(foreign)}`);
    expect(withForeign.status).toBe(302);
    const refused = await open(h.current, `${url}/internal/runbook`, withForeign.headers['set-cookie'] as unknown as string[]);
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('Members only.');

    const own = await ping(admin, admin.organizationId);
    const [header, payload] = own.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const withForged = await open(h.current, `${url}/internal/runbook?jwt_token=${encodeURIComponent(forged)}`);
    const forgedPage = await open(h.current, `${url}/internal/runbook`, withForged.headers['set-cookie'] as unknown as string[]);
    expect(forgedPage.status).toBe(401);
  });
});
