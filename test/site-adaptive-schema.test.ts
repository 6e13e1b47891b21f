import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { newSite, sitePath } from './sites-support.js';

const h = useHarness();

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean', description: 'The visitor is enrolled in the beta program' },
    isEnterprise: { type: 'boolean' },
    unsigned: {
      type: 'object',
      properties: { prefersDarkMode: { type: 'boolean' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

describe('site adaptive schema', () => {
  it('put and get /orgs/{organizationId}/sites/{siteId}/adaptive-schema store and return the schema', async () => {
    const admin = await h.current.newAdmin();
    const reader = await h.current.newMember(admin.organizationId, 'read');
    const site = await newSite(admin);
    const path = `${sitePath(admin, site.id)}/adaptive-schema`;
    const missing = await reader.api.get(path);
    expect(missing.status).toBe(404);
    const put = await admin.api.put(path, { jsonSchema: schema });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: schema });
    const got = await reader.api.get(path);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(put.body);
    expect((await reader.api.put(path, { jsonSchema: schema })).status).toBe(403);
    expect((await admin.api.get(`${sitePath(admin, 'sit_nope')}/adaptive-schema`)).status).toBe(404);
    expect((await admin.api.put(`${sitePath(admin, 'sit_nope')}/adaptive-schema`, { jsonSchema: schema })).status).toBe(404);
  });

  it('put /orgs/{organizationId}/sites/{siteId}/adaptive-schema refuses anything but a draft-07 schema of boolean claims (400)', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const path = `${sitePath(admin, site.id)}/adaptive-schema`;
    const invalid = [
      { type: 'object', properties: { plan: { type: 'string' } }, additionalProperties: false },
      { type: 'object', properties: { isBeta: { type: 'boolean' } } },
      { type: 'object', properties: { isBeta: { type: 'boolean' } }, additionalProperties: true },
      { type: 'array', items: { type: 'boolean' } },
      { type: 'object', properties: { isBeta: { type: 'boolean', minimum: 'x' } }, additionalProperties: false },
      { type: 'object', properties: { unsigned: { type: 'object', properties: { x: { type: 'number' } }, additionalProperties: false } }, additionalProperties: false },
      { type: 'object', properties: { unsigned: { type: 'boolean' } }, additionalProperties: false },
      { type: 'nonsense' },
      { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {}, additionalProperties: false },
      { type: 'object', properties: {}, additionalProperties: false, required: 'isBeta' },
    ];
    for (const jsonSchema of invalid) {
      const res = await admin.api.put(path, { jsonSchema });
      expect(res.status, JSON.stringify(jsonSchema)).toBe(400);
      expect(res.body.error.message).toContain('body.jsonSchema');
    }
    expect((await admin.api.put(path, {})).status).toBe(400);
    expect((await admin.api.get(path)).status).toBe(404);
    const minimal = await admin.api.put(path, { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } });
    expect(minimal.status).toBe(200);
  });

  it('get /orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions lists one condition per claim', async () => {
    const admin = await h.current.newAdmin();
    const site = await newSite(admin);
    const path = `${sitePath(admin, site.id)}/adaptive-schema`;
    expect((await admin.api.get(`${path}/template-conditions`)).body).toEqual({ items: [] });
    await admin.api.put(path, { jsonSchema: schema });
    const res = await admin.api.get(`${path}/template-conditions`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { description: 'The visitor is enrolled in the beta program', condition: 'visitor.claims.isBetaUser' },
      { description: "The visitor's isEnterprise claim is true", condition: 'visitor.claims.isEnterprise' },
      { description: "The visitor's unsigned prefersDarkMode claim is true", condition: 'visitor.claims.unsigned.prefersDarkMode' },
    ]);
    expect((await admin.api.get(`${sitePath(admin, 'sit_nope')}/adaptive-schema/template-conditions`)).status).toBe(404);
  });
});
