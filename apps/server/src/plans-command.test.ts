import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, bearer, type TestApp } from '../test/helpers.js';
import { plansCommand } from './plans-command.js';

let t: TestApp;
let owner: { idToken: string };
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t, 'plans-owner@example.com');
  projectId = await createProject(t, owner.idToken, 'Self Hosted');
  await createProject(t, owner.idToken, 'Twin');
  await createProject(t, owner.idToken, 'twin');
});
afterAll(() => t?.close());

const subscription = async () =>
  (await t.app.inject({ method: 'GET', url: `/ms-project/projects/${projectId}/subscription`, headers: bearer(owner.idToken) })).json() as {
    plan: { name: string };
  };

describe('gantry plans', () => {
  it("sets a project's plan by name (any case) or id, and the plan gates follow", async () => {
    const db = t.app.services.database.db;
    await expect(t.app.services.billing.assertFeature(projectId, 'cloudCostOptimizer')).rejects.toThrow(/Upgrade/);
    expect(await plansCommand(db, ['set', 'self hosted', 'business'])).toBe(`Self Hosted (${projectId}) is on Business`);
    await expect(t.app.services.billing.assertFeature(projectId, 'cloudCostOptimizer')).resolves.toBeUndefined();
    expect(await plansCommand(db, ['set', projectId, 'STARTER'])).toContain('is on Starter');
    expect((await subscription()).plan.name).toBe('Starter');
    expect(await plansCommand(db, ['list'])).toContain('BUSINESS\tBusiness');
  });

  it('names what is wrong', async () => {
    const db = t.app.services.database.db;
    await expect(plansCommand(db, ['set', 'Self Hosted', 'GOLD'])).rejects.toThrow(/Unknown plan GOLD; plans: .*BUSINESS/);
    await expect(plansCommand(db, ['set', 'Nope', 'PRO'])).rejects.toThrow('No project Nope');
    await expect(plansCommand(db, ['set', 'TWIN', 'PRO'])).rejects.toThrow(/2 projects are named TWIN/);
    await expect(plansCommand(db, ['set'])).rejects.toThrow(/usage/);
  });
});
