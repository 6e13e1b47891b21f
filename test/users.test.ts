import { describe, expect, it } from 'vitest';
import { createUser, issueToken } from '../server/auth/bootstrap.js';
import { send } from './support/api.js';
import { useHarness } from './support/harness.js';

const h = useHarness();

describe('GET /user', () => {
  it('get /user returns the user the token belongs to', async () => {
    const admin = await h.current.newAdmin();
    const res = await admin.api.get('/user');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'user', id: admin.userId, displayName: expect.any(String) });
    expect(res.body.urls.location).toBe(`https://api.test.example/v1/users/${admin.userId}`);
  });

  it('get /user returns the photo a user was created with (the admin CLI\'s --photo-url), and none otherwise', async () => {
    const user = await createUser(h.current.db, { email: `photo-${Date.now()}@example.com`, displayName: 'Pictured', photoUrl: 'https://avatars.example.com/p.png' });
    const token = await issueToken(h.current.db, user.id, 'test');
    const res = await send(h.current.app, 'get', '/v1/user', { token });
    expect(res.status).toBe(200);
    expect(res.body.photoURL).toBe('https://avatars.example.com/p.png');
    const plain = await h.current.newAdmin();
    const without = await plain.api.get('/user');
    expect(without.status).toBe(200);
    expect(without.body).not.toHaveProperty('photoURL');
  });

  it('get /user returns 401 without a token', async () => {
    const res = await send(h.current.app, 'get', '/v1/user');
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 401, message: expect.stringContaining('Bearer') });
  });

  it('get /user returns 401 with an unknown token', async () => {
    const res = await send(h.current.app, 'get', '/v1/user', { token: 'dwt_not-a-real-token' });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('Invalid access token');
  });
});
