// A Drizzle select attached to a grant's statement (server/db/attached-select.ts) answers what the select
// answers when Drizzle runs it: the same rows, mapped the same (timestamps as Dates, jsonb, counts, a
// left-joined side that is absent as null), on either storage. The grant query here is the organization's
// own (server/auth/grants.ts), with the read attached, as the operations attach theirs.
import { describe, expect, it } from 'vitest';
import { attachedRows, attachSelect } from '../server/db/attached-select.js';
import { readOrganizationGrant } from '../server/auth/grants.js';
import { memberSelect } from '../server/members/members.store.js';
import { versionSelect } from '../server/openapi/specs.store.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('attached select', () => {
  it("gives a member's row as Drizzle reads it, and no row for a non-member", async () => {
    const admin = await h.current.newAdmin();
    const other = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    for (const userId of [admin.userId, other.userId]) {
      const select = memberSelect(ctx, admin.organizationId, userId);
      const found = await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId, attachSelect('member', select));
      expect(found?.isMember).toBe(true);
      const attached = attachedRows(found?.attached, 'member', memberSelect(ctx, admin.organizationId, userId));
      expect(attached).toEqual(await memberSelect(ctx, admin.organizationId, userId));
    }
    const [row] = attachedRows(
      (await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId, attachSelect('member', memberSelect(ctx, admin.organizationId, admin.userId))))?.attached,
      'member',
      memberSelect(ctx, admin.organizationId, admin.userId),
    )!;
    expect(row.member.joinedAt).toBeInstanceOf(Date);
    expect(row.user.id).toBe(admin.userId);
  });

  it('gives the null side of a left join as null, and nothing when the grant did not carry the read', async () => {
    const admin = await h.current.newAdmin();
    const ctx = h.current.ctx(admin.userId);
    const put = await admin.api.put(`/orgs/${admin.organizationId}/openapi/petstore`, { source: { text: 'openapi: 3.0.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n' } });
    expect(put.status).toBe(201);
    const select = () => versionSelect(ctx, admin.organizationId, 'petstore', 'ver_none');
    const found = await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId, attachSelect('spec_version', select()));
    const rows = attachedRows(found?.attached, 'spec_version', select());
    expect(rows).toEqual(await select());
    expect(rows).toHaveLength(1);
    expect(rows![0].version).toBeNull();
    expect(rows![0].spec.createdAt).toBeInstanceOf(Date);
    const plain = await readOrganizationGrant(ctx.db, admin.organizationId, admin.userId);
    expect(attachedRows(plain?.attached, 'spec_version', select())).toBeUndefined();
  });
});
