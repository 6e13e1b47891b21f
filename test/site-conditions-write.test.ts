// Conditions are checked when they are written (sections, site spaces, pages, header links): outside the
// grammar, or naming a claim the site's adaptive schema does not define, they are refused with a 400 naming
// the field, the character and the reason; nothing is stored. Accepted ones are evaluated on read.
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { open, publish, spaceWithPages } from './published-support.js';
import { draftChanges, enableAdaptiveContent, newSection, newSite, newSpace, sitePath, signVisitorToken } from './sites-support.js';

const h = useHarness();

describe('conditions checked when written', () => {
  it('patch a section refuses a condition outside the grammar, and a claim the adaptive schema does not define', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin, { title: 'Docs' });
    const section = await newSection(admin, site.id, 'Guides');
    const path = `${sitePath(admin, site.id)}/sections/${section.id}`;

    const syntax = await admin.api.patch(path, { condition: 'visitor.claims.isBetaUser &&' });
    expect(syntax.status).toBe(400);
    expect(syntax.body.error.message).toBe('Invalid request: body.condition: at character 29: Expected expression after &&');
    const typo = await admin.api.patch(path, { condition: 'visitor.claim.isBetaUser' });
    expect(typo.status).toBe(400);
    expect(typo.body.error.message).toContain('body.condition: at character 9: `claim` is not a property of visitor');
    const operator = await admin.api.patch(path, { condition: 'visitor.claims.level > 2' });
    expect(operator.status).toBe(400);
    expect(operator.body.error.message).toContain('at character 22: operator `>` is not in the grammar');

    // Without an adaptive schema any claim name is accepted; with one, only the names it defines.
    expect((await admin.api.patch(path, { condition: 'visitor.claims.anything' })).status).toBe(200);
    await enableAdaptiveContent(admin, site.id);
    const unknown = await admin.api.patch(path, { condition: 'visitor.claims.isBeta', title: 'Renamed' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(
      "Invalid request: body.condition: at character 16: claim `isBeta` is not defined by the site's adaptive schema (claims: isBetaUser)",
    );
    const unsigned = await admin.api.patch(path, { condition: 'visitor.claims.unsigned.prefersLight' });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.error.message).toContain('unsigned claim `prefersLight` is not defined');
    // Nothing of a refused write is stored.
    const read = await admin.api.get(`${sitePath(admin, site.id)}/sections`);
    expect(read.status).toBe(200);
    expect(read.body.items[0]).toMatchObject({ title: 'Guides', condition: 'visitor.claims.anything' });

    const ok = await admin.api.patch(path, { condition: 'visitor.claims.isBetaUser || visitor.claims.unsigned.prefersDark' });
    expect(ok.status).toBe(200);
    expect(ok.body.condition).toBe('visitor.claims.isBetaUser || visitor.claims.unsigned.prefersDark');
  });

  it('patch a site space refuses a bad condition; an accepted one decides who reads the site space', async () => {
    const admin = await h.current.newAdmin();
    const open1 = await spaceWithPages(admin, 'Open', [{ title: 'Open page', markdown: 'Everyone reads this.' }]);
    const beta = await spaceWithPages(admin, 'Beta', [{ title: 'Beta page', markdown: 'Beta readers only.' }]);
    const site = await newSite(admin, { spaces: [open1, beta] });
    await enableAdaptiveContent(admin, site.id);
    const listed = await admin.api.get(`${sitePath(admin, site.id)}/site-spaces`);
    expect(listed.status).toBe(200);
    const path = `${sitePath(admin, site.id)}/site-spaces/${listed.body.items[1].id}`;

    const call = await admin.api.patch(path, { condition: 'visitor.claims.isBetaUser.valueOf()' });
    expect(call.status).toBe(400);
    expect(call.body.error.message).toContain('body.condition: at character 34: function calls are not in the grammar');
    const undefinedClaim = await admin.api.patch(path, { condition: '!visitor.claims.isEnterprise' });
    expect(undefinedClaim.status).toBe(400);
    expect(undefinedClaim.body.error.message).toContain('at character 17: claim `isEnterprise` is not defined');
    expect((await admin.api.patch(path, { condition: 'visitor.claims.isBetaUser' })).status).toBe(200);

    const url = (await publish(admin, site.id)).urls.published;
    const anonymous = await open(h.current, `${url}/beta`);
    expect(anonymous.text).not.toContain('Beta readers only.');
    const key = (await admin.api.get(`${sitePath(admin, site.id)}/publishing/auth`)).body.privateKey;
    const entry = await open(h.current, `${url}/beta?jwt_token=${await signVisitorToken({ isBetaUser: true }, key)}`);
    expect(entry.status).toBe(302);
    const reader = await open(h.current, `${url}/beta`, entry.headers['set-cookie'] as unknown as string[]);
    expect(reader.status).toBe(200);
    expect(reader.text).toContain('Beta readers only.');
  });

  it('a page condition is checked against the grammar, and against the schemas of the sites publishing the space', async () => {
    const admin = await h.current.newAdmin();
    const space = await newSpace(admin, 'Guides');
    const bad = await draftChanges(admin, space, [
      { operation: 'insert_page', title: 'Fine', document: { markdown: 'x' } },
      { operation: 'insert_page', title: 'Beta', document: { markdown: 'x' }, condition: 'visitor.claims.isBetaUser ==' },
    ]);
    expect(bad.content.status).toBe(400);
    expect(bad.content.body.error.message).toContain('body.changes[1].condition: at character 29: Expected expression after ==');
    // No site publishes the space yet: any claim name.
    const anyName = await draftChanges(admin, space, [{ operation: 'insert_page', title: 'Any', document: { markdown: 'x' }, condition: 'visitor.claims.plan == "pro"' }]);
    expect(anyName.content.status).toBe(200);

    const site = await newSite(admin, { spaces: [space] });
    await enableAdaptiveContent(admin, site.id);
    const other = await newSite(admin, { spaces: [space] });
    await enableAdaptiveContent(admin, other.id, {
      type: 'object',
      properties: { isEnterprise: { type: 'boolean' } },
      additionalProperties: false,
    });
    const unknown = await draftChanges(admin, space, [{ operation: 'insert_page', title: 'Beta', document: { markdown: 'x' }, condition: 'visitor.claims.isBeta' }]);
    expect(unknown.content.status).toBe(400);
    expect(unknown.content.body.error.message).toContain(
      "body.changes[0].condition: at character 16: claim `isBeta` is not defined by the site's adaptive schema (claims: isBetaUser, isEnterprise)",
    );
    // A claim of either site's schema is accepted, and "" removes a condition.
    const accepted = await draftChanges(admin, space, [
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: 'x' }, condition: 'visitor.claims.isBetaUser' },
      { operation: 'insert_page', title: 'Enterprise', document: { markdown: 'x' }, condition: 'visitor.claims.isEnterprise' },
      { operation: 'update_page', page: 'b', condition: '' },
    ]);
    expect(accepted.content.status, JSON.stringify(accepted.content.body)).toBe(200);
  });

  it('put customization refuses a header link condition outside the grammar or naming an undefined claim', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin, { title: 'Docs' });
    await enableAdaptiveContent(admin, site.id);
    const path = `${sitePath(admin, site.id)}/customization`;
    const link = (condition: string) => ({ header: { links: [{ title: 'Home', to: { kind: 'url', url: 'https://acme.example.com' } }, { title: 'Beta', to: { kind: 'url', url: 'https://acme.example.com/beta' }, condition }] } });

    const syntax = await admin.api.put(path, link('visitor.claims.isBetaUser)'));
    expect(syntax.status).toBe(400);
    expect(syntax.body.error.message).toContain('body.header.links[1].condition: at character 26');
    const unknown = await admin.api.put(path, link('visitor.claims.beta'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('body.header.links[1].condition: at character 16: claim `beta` is not defined');
    const ok = await admin.api.put(path, link('visitor.claims.isBetaUser'));
    expect(ok.status).toBe(200);
    expect(ok.body.header.links[1].condition).toBe('visitor.claims.isBetaUser');
  });
});
