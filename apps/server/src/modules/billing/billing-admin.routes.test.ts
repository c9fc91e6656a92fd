import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, bearer, createProject, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let admin: { idToken: string };
let user: { idToken: string };
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await registerUser(t, 'instance-admin@example.com'); // the first account is the instance admin
  user = await registerUser(t, 'plan-user@example.com');
  projectId = await createProject(t, user.idToken, 'Customer');
  await createProject(t, admin.idToken, 'admins own');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'PUT', url: string, idToken: string | null, payload?: object) =>
  t.app.inject({ method, url: `/ms-project${url}`, headers: idToken ? bearer(idToken) : {}, payload });

describe('the instance admin plans page', () => {
  it('lists every project of the instance with its owners and plan, for the instance admin only', async () => {
    const res = await call('GET', '/admin/projects', admin.idToken);
    expect(res.statusCode).toBe(200);
    const projects = res.json().projects;
    expect(projects.map((p: any) => p.name)).toEqual(['admins own', 'Customer']);
    expect(projects[1]).toMatchObject({ id: projectId, owners: ['plan-user@example.com'], plan: { id: 'STARTER', name: 'Starter' }, status: 'TRIAL' });
    expect((await call('GET', '/admin/projects', user.idToken)).statusCode).toBe(403);
    expect((await call('GET', '/admin/projects', null)).statusCode).toBe(401);
  });

  it('sets a project plan: the project and its history show it', async () => {
    const res = await call('PUT', `/admin/projects/${projectId}/plan`, admin.idToken, { planId: 'BUSINESS' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: projectId, plan: { id: 'BUSINESS', name: 'Business' }, status: 'ACTIVE', expirationDate: null });
    const sub = await call('GET', `/projects/${projectId}/subscription`, user.idToken);
    expect(sub.json().plan).toMatchObject({ id: 'BUSINESS', name: 'Business' });
    const history = (await t.app.inject({ method: 'GET', url: `/ms-project/projects/${projectId}/subscription/history`, headers: bearer(user.idToken) })).json()
      .history;
    expect(history.map((h: any) => [h.type, h.planId, h.planName])).toEqual([
      ['PAID', 'BUSINESS', 'Business'],
      ['TRIAL', 'STARTER', 'Starter'],
    ]);
  });

  it('refuses a bad body (400), an unknown plan (400), an unknown project (404) and a non-admin (403)', async () => {
    expect((await call('PUT', `/admin/projects/${projectId}/plan`, admin.idToken, { planId: '' })).statusCode).toBe(400);
    const unknown = await call('PUT', `/admin/projects/${projectId}/plan`, admin.idToken, { planId: 'GOLD' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('Unknown plan GOLD');
    expect((await call('PUT', `/admin/projects/00000000-0000-4000-8000-000000000000/plan`, admin.idToken, { planId: 'PRO' })).statusCode).toBe(404);
    expect((await call('PUT', `/admin/projects/${projectId}/plan`, user.idToken, { planId: 'PRO' })).statusCode).toBe(403);
    expect((await call('GET', `/projects/${projectId}/subscription`, user.idToken)).json().plan.id).toBe('BUSINESS');
  });
});
