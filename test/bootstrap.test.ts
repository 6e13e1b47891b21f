// First start and the admin CLI's account functions, on a real database.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bootstrapIfEmpty, createUser, issueToken } from '../server/auth/bootstrap.js';
import { apiTokens } from '../server/db/schema/index.js';
import { send } from './support/api.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('bootstrap and accounts', () => {
  it('sets up a fresh database once, with the given token, stored only as a hash', async () => {
    const first = await bootstrapIfEmpty(h.current.db, 'dwt_from-the-environment-123');
    expect(first).toMatchObject({ token: 'dwt_from-the-environment-123' });
    expect(await bootstrapIfEmpty(h.current.db)).toBeUndefined();

    const stored = await h.current.db.select().from(apiTokens).where(eq(apiTokens.userId, first!.userId));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(first!.token);

    const me = await send(h.current.app, 'get', '/v1/user', { token: first!.token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(first!.userId);
    const orgs = await send(h.current.app, 'get', '/v1/orgs', { token: first!.token });
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([first!.organizationId]);
    expect(orgs.body.items[0].permissions.admin).toBe(true);
  });

  it('refuses a second user with the same email, in any case', async () => {
    await createUser(h.current.db, { email: 'Grace@Example.com', displayName: 'Grace' });
    await expect(createUser(h.current.db, { email: 'grace@example.com', displayName: 'Grace again' })).rejects.toThrow(/already exists/);
  });

  it('issues random tokens for existing users only', async () => {
    const user = await createUser(h.current.db, { email: 'tokens@example.com', displayName: 'Tokens' });
    const a = await issueToken(h.current.db, user.id, 'a');
    const b = await issueToken(h.current.db, user.id, 'b');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^dwt_[A-Za-z0-9_-]{32}$/);
    await expect(issueToken(h.current.db, 'usr_missing', 'x')).rejects.toThrow(/not found/);
  });
});
