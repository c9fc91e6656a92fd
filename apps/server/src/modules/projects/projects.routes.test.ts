import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, bearer, createProject, addMember, login, PASSWORD, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let owner: { idToken: string; profile: { id: string } };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
const tokens: Record<'admin' | 'write' | 'read', { idToken: string; profile: { id: string } }> = {} as any;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t, 'owner@example.com', { firstName: 'Olga', lastName: 'Owner' });
  outsider = await registerUser(t, 'outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'beta');
  otherProjectId = await createProject(t, outsider.idToken, 'Theirs');
  for (const p of ['admin', 'write', 'read'] as const) tokens[p] = await addMember(t, owner.idToken, projectId, `${p}@example.com`, p);
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, idToken: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-project${url}`, headers: bearer(idToken), payload });

describe('projects', () => {
  it("lists the caller's projects sorted by name, case-insensitively, with the caller's permission", async () => {
    await createProject(t, owner.idToken, 'Alpha');
    const res = await call('GET', '/projects', owner.idToken);
    expect(res.statusCode).toBe(200);
    expect(res.json().projects.map((p: any) => p.name)).toEqual(['Alpha', 'beta']);
    expect(res.json().projects[0]).toMatchObject({ permission: 'owner', paymentPlanId: 'STARTER', stagesCount: 0, componentsCount: 0 });
    const mine = (await call('GET', '/projects', tokens.read.idToken)).json().projects;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: projectId, permission: 'read' });
  });

  it('validates name (≤ 20) and description (required)', async () => {
    const res = await call('POST', '/projects', owner.idToken, { name: 'x'.repeat(21), description: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({ name: ['Project name must be at most 20 characters'], description: ['Description is required'] });
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/ms-project/projects' })).statusCode).toBe(401);
  });

  it('lets only the owner update', async () => {
    const ok = await call('PUT', `/projects/${projectId}`, owner.idToken, { name: 'Beta', description: 'Renamed' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Beta', description: 'Renamed', permission: 'owner' });
    for (const p of ['admin', 'write', 'read'] as const) {
      const res = await call('PUT', `/projects/${projectId}`, tokens[p].idToken, { name: 'Hacked', description: 'x' });
      expect(res.statusCode, p).toBe(403);
    }
    expect((await call('PUT', `/projects/${projectId}`, owner.idToken, { name: '', description: 'x' })).statusCode).toBe(400);
    expect((await call('PUT', `/projects/${otherProjectId}`, owner.idToken, { name: 'Mine', description: 'x' })).statusCode).toBe(404);
  });

  it('lets only the owner delete, and another project stays out of reach', async () => {
    const doomed = await createProject(t, owner.idToken, 'Doomed');
    await addMember(t, owner.idToken, doomed, 'doomed-admin@example.com', 'admin');
    const admin = await login(t, 'doomed-admin@example.com', PASSWORD);
    expect((await call('DELETE', `/projects/${doomed}`, admin.idToken)).statusCode).toBe(403);
    expect((await call('DELETE', `/projects/${otherProjectId}`, owner.idToken)).statusCode).toBe(404);
    // the guard answers before the params are validated (app.ts): a malformed id is a project not found
    expect((await call('DELETE', `/projects/not-a-uuid`, owner.idToken)).statusCode).toBe(404);
    expect((await call('DELETE', `/projects/${doomed}`, owner.idToken)).statusCode).toBe(200);
    expect((await call('GET', `/projects/${doomed}/users`, owner.idToken)).statusCode).toBe(404);
  });
});

describe('members', () => {
  it('lists members with status to every member, 404 to others', async () => {
    const res = await call('GET', `/projects/${projectId}/users`, tokens.read.idToken);
    expect(res.statusCode).toBe(200);
    const users = res.json().users;
    expect(users.map((u: any) => u.permission).sort()).toEqual(['admin', 'owner', 'read', 'write']);
    expect(users.find((u: any) => u.email === 'owner@example.com')).toMatchObject({ firstName: 'Olga', status: 'CONFIRMED' });
    expect((await call('GET', `/projects/${projectId}/users`, outsider.idToken)).statusCode).toBe(404);
  });

  it('invites a new user as pending (write by default) with a temporary password that forces a new one', async () => {
    const res = await call('POST', `/projects/${projectId}/users`, tokens.admin.idToken, { email: 'New.Person@example.com' });
    expect(res.statusCode).toBe(201);
    const listed = (await call('GET', `/projects/${projectId}/users`, owner.idToken)).json().users.find((u: any) => u.email === 'new.person@example.com');
    expect(listed).toMatchObject({ permission: 'write', status: 'FORCE_CHANGE_PASSWORD' });
    const mail = (await t.lastMail('new.person@example.com'))!;
    expect(mail.subject).toContain('beta'.length ? 'invited you to' : '');
    const temp = /temporary password: (\S+)/.exec(mail.text)![1]!;
    const first = await t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/login', payload: { username: 'new.person@example.com', password: temp } });
    expect(first.json()).toMatchObject({ done: false, challengeName: 'NEW_PASSWORD_REQUIRED' });
    const set = await t.app.inject({
      method: 'POST',
      url: '/ms-usermanagement/auth/set-password',
      payload: { username: 'new.person@example.com', sessionToken: first.json().sessionToken, newPassword: 'Chosen123', firstName: 'New', lastName: 'Person' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ done: true, profile: { status: 'CONFIRMED', firstName: 'New' } });
    // the challenge session works once
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ms-usermanagement/auth/set-password',
          payload: { username: 'new.person@example.com', sessionToken: first.json().sessionToken, newPassword: 'Other1234' },
        })
      ).statusCode,
    ).toBe(401);
    const again = await call('POST', `/projects/${projectId}/users/resend`, owner.idToken, { username: 'new.person@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The user has already accepted the invitation');
  });

  it('resends a pending invitation with a new temporary password', async () => {
    await call('POST', `/projects/${projectId}/users`, owner.idToken, { email: 'pending@example.com', permission: 'read' });
    const firstTemp = /temporary password: (\S+)/.exec((await t.lastMail('pending@example.com'))!.text)![1];
    const res = await call('POST', `/projects/${projectId}/users/resend`, tokens.admin.idToken, { username: 'pending@example.com' });
    expect(res.statusCode).toBe(200);
    const secondTemp = /temporary password: (\S+)/.exec((await t.lastMail('pending@example.com'))!.text)![1];
    expect(secondTemp).not.toBe(firstTemp);
    expect((await call('POST', `/projects/${projectId}/users/resend`, tokens.write.idToken, { username: 'pending@example.com' })).statusCode).toBe(403);
  });

  it('adds an existing account directly and refuses duplicates', async () => {
    const res = await call('POST', `/projects/${otherProjectId}/users`, outsider.idToken, { email: 'owner@example.com', permission: 'read' });
    expect(res.statusCode).toBe(201);
    expect((await t.lastMail('owner@example.com'))!.subject).toContain('You were added to Theirs');
    expect((await call('POST', `/projects/${otherProjectId}/users`, outsider.idToken, { email: 'owner@example.com', permission: 'read' })).statusCode).toBe(
      409,
    );
  });

  it('validates the invitation and enforces who may invite', async () => {
    const bad = await call('POST', `/projects/${projectId}/users`, owner.idToken, { email: 'x', permission: 'god' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ email: ['Please enter a valid email'], permission: ['Please assign a permission'] });
    for (const p of ['write', 'read'] as const) {
      expect((await call('POST', `/projects/${projectId}/users`, tokens[p].idToken, { email: `by-${p}@example.com`, permission: 'read' })).statusCode).toBe(
        403,
      );
    }
    expect((await call('POST', `/projects/${projectId}/users`, tokens.admin.idToken, { email: 'boss@example.com', permission: 'owner' })).statusCode).toBe(403);
    expect((await call('POST', `/projects/${projectId}/users`, outsider.idToken, { email: 'sneak@example.com', permission: 'read' })).statusCode).toBe(404);
  });

  it('updates a permission, with owners protected', async () => {
    const id = tokens.write.profile.id;
    expect((await call('PUT', `/projects/${projectId}/users/${id}`, tokens.admin.idToken, { permission: 'read' })).statusCode).toBe(200);
    expect((await call('PUT', `/projects/${projectId}/users/${id}`, tokens.admin.idToken, { permission: 'write' })).statusCode).toBe(200);
    expect((await call('PUT', `/projects/${projectId}/users/${id}`, tokens.admin.idToken, { permission: 'nope' })).statusCode).toBe(400);
    expect((await call('PUT', `/projects/${projectId}/users/${owner.profile.id}`, tokens.admin.idToken, { permission: 'read' })).statusCode).toBe(403);
    expect((await call('PUT', `/projects/${projectId}/users/${id}`, tokens.read.idToken, { permission: 'admin' })).statusCode).toBe(403);
    expect((await call('PUT', `/projects/${projectId}/users/${owner.profile.id}`, owner.idToken, { permission: 'admin' })).json().message).toBe(
      'A project needs at least one owner',
    );
    expect((await call('PUT', `/projects/${otherProjectId}/users/${id}`, owner.idToken, { permission: 'admin' })).statusCode).toBe(403);
    expect((await call('PUT', `/projects/${otherProjectId}/users/${id}`, outsider.idToken, { permission: 'admin' })).statusCode).toBe(404);
  });

  it('removes a member, who then loses access', async () => {
    const victim = await addMember(t, owner.idToken, projectId, 'leaving@example.com', 'write');
    expect((await call('DELETE', `/projects/${projectId}/users/${victim.profile.id}`, tokens.write.idToken)).statusCode).toBe(403);
    expect((await call('DELETE', `/projects/${projectId}/users/${owner.profile.id}`, tokens.admin.idToken)).statusCode).toBe(403);
    expect((await call('DELETE', `/projects/${projectId}/users/${victim.profile.id}`, tokens.admin.idToken)).statusCode).toBe(200);
    expect((await call('GET', `/projects/${projectId}/users`, victim.idToken)).statusCode).toBe(404);
    expect((await call('DELETE', `/projects/${projectId}/users/${victim.profile.id}`, owner.idToken)).statusCode).toBe(404);
  });

  it('keeps an owner when two owners step down or leave at the same moment', async () => {
    for (const [i, step] of (['demote', 'remove', 'demote', 'remove'] as const).entries()) {
      const first = await registerUser(t, `twin-a${i}@example.com`);
      const pid = await createProject(t, first.idToken, `Twins ${i}`);
      const second = await addMember(t, first.idToken, pid, `twin-b${i}@example.com`, 'owner');
      // each owner takes themselves out of the owners, side by side
      const leave = (u: { idToken: string; profile: { id: string } }) =>
        step === 'demote'
          ? call('PUT', `/projects/${pid}/users/${u.profile.id}`, u.idToken, { permission: 'admin' })
          : call('DELETE', `/projects/${pid}/users/${u.profile.id}`, u.idToken);
      const answers = await Promise.all([leave(first), leave(second)]);
      expect(answers.map((a) => a.statusCode).sort(), step).toEqual([200, 400]);
      const left = (await call('GET', `/projects/${pid}/users`, answers[0]!.statusCode === 200 ? second.idToken : first.idToken)).json().users;
      expect(
        left.filter((u: { permission: string }) => u.permission === 'owner'),
        step,
      ).toHaveLength(1);
    }
  });

  it('answers "get multiple users" only for members of the project', async () => {
    const ids = [tokens.read.profile.id, owner.profile.id].join(',');
    const res = await t.app.inject({
      method: 'GET',
      url: `/ms-usermanagement/projects/${projectId}/users?userIds=${ids}`,
      headers: bearer(tokens.read.idToken),
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().users).sort()).toEqual([tokens.read.profile.id, owner.profile.id].sort());
    expect(
      (await t.app.inject({ method: 'GET', url: `/ms-usermanagement/projects/${projectId}/users?userIds=${ids}`, headers: bearer(outsider.idToken) }))
        .statusCode,
    ).toBe(404);
  });
});
