import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { createNotificationsStore } from './notifications.store.js';
import { createTestApp, registerUser, createProject, addMember, bearer, codeFromMail, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let owner: { idToken: string; profile: { id: string } };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t, 'note-owner@example.com', { firstName: 'Nora', lastName: 'Owner' });
  outsider = await registerUser(t, 'note-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Noted');
  otherProjectId = await createProject(t, outsider.idToken, 'Elsewhere');
  reader = await addMember(t, owner.idToken, projectId, 'note-reader@example.com', 'read');
  const build = { projectId, pipelineId: '5d1c2e44-0a1b-4c5d-8e9f-0a1b2c3d4e5f', pipelineName: 'web', branch: 'main', triggeredBy: owner.profile.id };
  await t.app.services.notifications.buildFinished({ ...build, number: 1, status: 'FAILED' });
  await t.app.services.notifications.buildFinished({ ...build, number: 2, status: 'SUCCEEDED' });
  await t.app.services.notifications.buildFinished({ ...build, number: 3, status: 'RUNNING' }); // not an end: nothing
});
afterAll(async () => {
  await t?.close();
});

const get = (token: string) => t.app.inject({ method: 'GET', url: '/ms-notification/notifications', headers: bearer(token) });

describe('notifications', () => {
  it('tells every member of the project about finished builds, newest first', async () => {
    const res = await get(reader.idToken);
    expect(res.statusCode).toBe(200);
    const list = res.json().notifications;
    expect(list.map((n: any) => n.message)).toEqual(['Build #2 of web on main succeeded', 'Build #1 of web on main failed']);
    expect(list[0]).toMatchObject({ author: 'Nora Owner', isRead: false, projectName: 'Noted', entityType: 'PIPELINE', version: '2' });
    expect((await get(owner.idToken)).json().notifications).toHaveLength(2);
    expect((await get(outsider.idToken)).json().notifications).toHaveLength(0);
    expect((await t.app.inject({ method: 'GET', url: '/ms-notification/notifications' })).statusCode).toBe(401);
  });

  it('marks one read for this user only, then all of a project', async () => {
    const [first] = (await get(reader.idToken)).json().notifications;
    const mark = (token: string, pid: string, id: string) =>
      t.app.inject({ method: 'PUT', url: `/ms-notification/projects/${pid}/notifications/${id}/read`, headers: bearer(token) });
    expect((await mark(reader.idToken, projectId, first.id)).statusCode).toBe(200);
    expect((await get(reader.idToken)).json().notifications.map((n: any) => n.isRead)).toEqual([true, false]);
    expect((await get(owner.idToken)).json().notifications.every((n: any) => !n.isRead)).toBe(true);
    expect((await mark(owner.idToken, projectId, first.id)).statusCode).toBe(404); // another user's row
    expect((await mark(outsider.idToken, projectId, first.id)).statusCode).toBe(404);
    expect((await mark(reader.idToken, projectId, 'nope')).statusCode).toBe(400);
    const all = await t.app.inject({ method: 'PUT', url: `/ms-notification/projects/${projectId}/notifications/read`, headers: bearer(owner.idToken) });
    expect(all.statusCode).toBe(200);
    expect((await get(owner.idToken)).json().notifications.every((n: any) => n.isRead)).toBe(true);
    expect(
      (await t.app.inject({ method: 'PUT', url: `/ms-notification/projects/${otherProjectId}/notifications/read`, headers: bearer(owner.idToken) })).statusCode,
    ).toBe(404);
  });

  it("marks a project read through its unread rows alone, not the user's whole history", async () => {
    const { db } = t.app.services.database;
    // the planner's choice on a table this small is a scan of it all: which index it would walk is asked with scans off
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const { rows } = await tx.execute(sql`explain `.append(createNotificationsStore(db).markAllRead(owner.profile.id, projectId).getSQL()));
      return rows.map((r) => Object.values(r).join('')).join('\n');
    });
    expect(plan).toContain('notifications_user_project_unread_idx');
  });
});

describe('subscriptions', () => {
  const users = (token: string, pid = projectId) => t.app.inject({ method: 'GET', url: `/ms-notification/projects/${pid}/users`, headers: bearer(token) });
  const set = (method: 'POST' | 'DELETE', token: string, userId: string, pid = projectId) =>
    t.app.inject({ method, url: `/ms-notification/projects/${pid}/users/${userId}`, headers: bearer(token) });

  it('every member is subscribed until they unsubscribe; only subscribed members are notified', async () => {
    const readerId = (await t.app.inject({ method: 'GET', url: '/ms-usermanagement/users/me', headers: bearer(reader.idToken) })).json().id as string;
    const ids = (await users(reader.idToken)).json().users.map((u: { userId: string }) => u.userId);
    expect(ids.sort()).toEqual([owner.profile.id, readerId].sort());
    expect((await set('DELETE', reader.idToken, readerId)).statusCode).toBe(200);
    expect((await users(owner.idToken)).json().users).toEqual([{ userId: owner.profile.id }]);

    const before = (await get(reader.idToken)).json().notifications.length;
    await t.app.services.notifications.deploymentFinished({
      projectId,
      stageId: '0d6c1e2f-3a4b-4c5d-8e9f-0a1b2c3d4e5f',
      stageName: 'prod',
      kind: 'UNDEPLOY',
      succeeded: true,
      status: 'DELETE_COMPLETE',
      triggeredBy: owner.profile.id,
    });
    expect((await get(reader.idToken)).json().notifications).toHaveLength(before);
    const [latest] = (await get(owner.idToken)).json().notifications;
    expect(latest).toMatchObject({ message: 'Undeploy of prod succeeded', entityType: 'STAGE', itemId: '0d6c1e2f-3a4b-4c5d-8e9f-0a1b2c3d4e5f' });

    expect((await set('POST', reader.idToken, readerId)).statusCode).toBe(200);
    expect((await set('POST', reader.idToken, readerId)).statusCode).toBe(200); // idempotent
    await t.app.services.notifications.serviceDeployed({ projectId, serviceName: 'api', succeeded: true, version: 'v2', triggeredBy: null });
    const [svc] = (await get(reader.idToken)).json().notifications;
    expect(svc).toMatchObject({ message: 'Service api (v2) deployed', entityType: 'SERVICE', itemId: 'api', author: 'Gantry' });
  });

  it('an invitee who has not accepted yet is no subscriber, and is not notified, until they accept', async () => {
    const invited = await t.app.inject({
      method: 'POST',
      url: `/ms-project/projects/${projectId}/users`,
      headers: bearer(owner.idToken),
      payload: { email: 'note-invitee@example.com', permission: 'write' },
    });
    expect(invited.statusCode).toBe(201);
    const members = (await t.app.inject({ method: 'GET', url: `/ms-project/projects/${projectId}/users`, headers: bearer(owner.idToken) })).json().users;
    const invitee = members.find((m: { email: string }) => m.email === 'note-invitee@example.com');
    expect(invitee.status).toBe('FORCE_CHANGE_PASSWORD');
    const subscriberIds = async () => (await users(owner.idToken)).json().users.map((u: { userId: string }) => u.userId);
    expect(await subscriberIds()).not.toContain(invitee.id);
    expect((await subscriberIds()).length).toBe(2); // the owner and the reader

    await t.app.services.notifications.serviceDeployed({ projectId, serviceName: 'web', succeeded: true, version: 'v3', triggeredBy: null });
    // the invitee accepts: no notification of before, subscribed from now on
    const mail = await t.lastMail('note-invitee@example.com');
    const set = await t.app.inject({
      method: 'POST',
      url: '/ms-usermanagement/auth/set-password',
      payload: {
        username: 'note-invitee@example.com',
        sessionToken: codeFromMail(mail!.text, '/account/set-password/'),
        newPassword: 'Invitee1234',
        firstName: 'In',
        lastName: 'Vitee',
      },
    });
    expect(set.statusCode).toBe(200);
    expect((await get(set.json().idToken)).json().notifications).toEqual([]);
    expect(await subscriberIds()).toContain(invitee.id);
  });

  it("refuses someone else's subscription (403), another project (404) and a malformed id (400)", async () => {
    expect((await set('DELETE', reader.idToken, owner.profile.id)).statusCode).toBe(403);
    expect((await set('DELETE', outsider.idToken, owner.profile.id)).statusCode).toBe(404);
    expect((await users(outsider.idToken)).statusCode).toBe(404);
    expect((await users(owner.idToken, otherProjectId)).statusCode).toBe(404);
    expect((await set('POST', owner.idToken, 'nope')).statusCode).toBe(400);
  });
});
