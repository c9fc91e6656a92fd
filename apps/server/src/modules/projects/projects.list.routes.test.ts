import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  acceptingCloudVerifier,
  addMember,
  awsProject,
  bearer,
  createProject,
  createStage,
  createTestApp,
  grantPlan,
  login,
  PASSWORD,
  registerUser,
  type TestApp,
} from '../../../test/helpers.js';

// GET /ms-project/projects answers bytes kept per user: each asks twice so the second answer is a kept one.
let t: TestApp;
let owner: { idToken: string; profile: { id: string } };
let member: { idToken: string; profile: { id: string } };
let shared: string;

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { cloudAccounts: { verifier: acceptingCloudVerifier } } });
  owner = await registerUser(t, 'list-owner@example.com');
  await createProject(t, owner.idToken, 'Own');
  shared = await awsProject(t, owner.idToken, 'Shared');
  member = await addMember(t, owner.idToken, shared, 'list-member@example.com', 'read');
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const list = async (idToken: string) => {
  const res = await t.app.inject({ method: 'GET', url: '/ms-project/projects', headers: bearer(idToken) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.json().projects as { id: string; name: string; permission: string; paymentPlanId: string; stagesCount: number }[];
};
const twice = async (idToken: string) => {
  await list(idToken);
  return list(idToken);
};

describe('the kept project list', () => {
  it("answers each user their own list, never another's", async () => {
    for (let i = 0; i < 2; i++) {
      expect((await twice(owner.idToken)).map((p) => [p.name, p.permission])).toEqual([
        ['Own', 'owner'],
        ['Shared', 'owner'],
      ]);
      expect((await twice(member.idToken)).map((p) => [p.name, p.permission])).toEqual([['Shared', 'read']]);
    }
  });

  it('shows a renamed project under its new name at once, to every member', async () => {
    await twice(owner.idToken);
    await twice(member.idToken);
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/ms-project/projects/${shared}`,
      headers: bearer(owner.idToken),
      payload: { name: 'Renamed', description: 'x' },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await list(owner.idToken)).map((p) => p.name)).toEqual(['Own', 'Renamed']);
    expect((await list(member.idToken)).map((p) => p.name)).toEqual(['Renamed']);
  });

  it('counts a new environment at once', async () => {
    expect((await twice(owner.idToken)).find((p) => p.id === shared)?.stagesCount).toBe(0);
    await createStage(t, owner.idToken, shared);
    expect((await list(owner.idToken)).find((p) => p.id === shared)?.stagesCount).toBe(1);
  });

  it('drops a project from a removed member’s list on the next request', async () => {
    const leaving = await addMember(t, owner.idToken, shared, 'list-leaving@example.com', 'write');
    expect((await twice(leaving.idToken)).map((p) => p.id)).toEqual([shared]);
    const removed = await t.app.inject({ method: 'DELETE', url: `/ms-project/projects/${shared}/users/${leaving.profile.id}`, headers: bearer(owner.idToken) });
    expect(removed.statusCode).toBe(200);
    expect(await list(leaving.idToken)).toEqual([]);
  });

  it('shows the plan in force as the clock passes its end, with no write in between', async () => {
    const paid = await createProject(t, member.idToken, 'Paid');
    await grantPlan(t, member.idToken, paid);
    expect((await twice(member.idToken)).find((p) => p.id === paid)?.paymentPlanId).toBe('PRO');
    // a promotion runs a year: a day past it the project is on STARTER again (its token has expired by then: a new login)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 366 * 86_400_000 });
    const later = await login(t, 'list-member@example.com', PASSWORD);
    expect((await list(later.idToken)).find((p) => p.id === paid)?.paymentPlanId).toBe('STARTER');
  });
});
