import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, bearer, createProject, addMember, PASSWORD, codeFromMail, login, type TestApp } from '../../../test/helpers.js';
import { expectEveryProjectRouteListed, expectProjectGuards, type GuardedRoute } from '../../../test/route-guards.js';

let t: TestApp;
let owner: { idToken: string };
let outsider: { idToken: string };
let reader: { idToken: string };
let readMember: { idToken: string };
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t, 'bill-owner@example.com');
  outsider = await registerUser(t, 'bill-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Billing');
  reader = await addMember(t, owner.idToken, projectId, 'bill-admin@example.com', 'admin');
  readMember = await addMember(t, owner.idToken, projectId, 'bill-reader@example.com', 'read');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, idToken: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-project${url}`, headers: bearer(idToken), payload });

describe('guards', () => {
  // billing changes are the owner's: an admin and a read member get 403 alike
  const routes = (): GuardedRoute[] => {
    const base = `/ms-project/projects/${projectId}`;
    return [
      { method: 'GET', url: `${base}/subscription` },
      { method: 'GET', url: `${base}/subscription/history` },
      { method: 'GET', url: `${base}/payments` },
      { method: 'POST', url: `${base}/checkout`, payload: { kind: 'special-deal' }, change: true },
      { method: 'PUT', url: `${base}/subscription/recurrency`, payload: { enabled: false }, change: true },
      { method: 'POST', url: `${base}/promo-code`, payload: { redeemCode: 'NOPE-NOPE' }, change: true },
    ];
  };

  it('covers every project route of billing (the instance admin routes have their own guard)', async () => {
    await expectEveryProjectRouteListed(t, ['billing'], routes(), /\/admin\//);
  });

  it('refuses read members and admins changes (403), other projects (404) and no session (401)', async () => {
    await expectProjectGuards(t, routes(), { reader: readMember.idToken, outsider: outsider.idToken });
    await expectProjectGuards(t, routes(), { reader: reader.idToken, outsider: outsider.idToken });
  });
});

describe('plans and subscriptions', () => {
  it('lists the plans with every limitation key', async () => {
    const res = await call('GET', '/payment-plans', owner.idToken);
    expect(res.statusCode).toBe(200);
    const plans = res.json().paymentPlans;
    expect(plans.map((p: any) => p.id)).toEqual(['STARTER', 'PRO', 'BUSINESS']);
    expect(Object.keys(plans[0].limitations).sort()).toEqual([
      'biggerRuntimeEnvironments',
      'buildMinutes',
      'cloudCostOptimizer',
      'deploymentInsights',
      'environmentReplication',
      'environmentsAllowed',
      'fullPackComponents',
      'kubernetesDashboard',
      'pipelinesManager',
      'slackIntegration',
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/ms-project/payment-plans' })).statusCode).toBe(401);
  });

  it('starts a new project on a 14-day STARTER trial', async () => {
    const res = await call('GET', `/projects/${projectId}/subscription`, reader.idToken);
    expect(res.statusCode).toBe(200);
    const sub = res.json();
    expect(sub).toMatchObject({ plan: { id: 'STARTER' }, status: 'TRIAL', recurringEnabled: false });
    const days = (new Date(sub.expirationDate).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    expect((await call('GET', `/projects/${projectId}/subscription`, outsider.idToken)).statusCode).toBe(404);
    const history = await call('GET', `/projects/${projectId}/subscription/history`, reader.idToken);
    expect(history.json().history).toHaveLength(1);
    expect(history.json().history[0].type).toBe('TRIAL');
  });

  it('toggles recurrency for the owner only', async () => {
    const res = await call('PUT', `/projects/${projectId}/subscription/recurrency`, owner.idToken, { enabled: true });
    expect(res.json().recurringEnabled).toBe(true);
    expect((await call('PUT', `/projects/${projectId}/subscription/recurrency`, owner.idToken, { enabled: 'yes' })).statusCode).toBe(400);
    expect((await call('PUT', `/projects/${projectId}/subscription/recurrency`, reader.idToken, { enabled: false })).statusCode).toBe(403);
    expect((await call('PUT', `/projects/${projectId}/subscription/recurrency`, outsider.idToken, { enabled: false })).statusCode).toBe(404);
  });

  it('redeems a promo code once into a year of the Professional plan', async () => {
    const [code] = await t.app.services.billing.createPromoCodes({ kind: 'PROMO', planId: 'PRO', count: 1 });
    expect((await call('POST', `/projects/${projectId}/promo-code`, owner.idToken, { redeemCode: '' })).statusCode).toBe(400);
    expect((await call('POST', `/projects/${projectId}/promo-code`, reader.idToken, { redeemCode: code })).statusCode).toBe(403);
    expect((await call('POST', `/projects/${projectId}/promo-code`, outsider.idToken, { redeemCode: code })).statusCode).toBe(404);
    const res = await call('POST', `/projects/${projectId}/promo-code`, owner.idToken, { redeemCode: code });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ plan: { id: 'PRO', name: 'Professional' }, status: 'ACTIVE' });
    expect((await call('POST', `/projects/${projectId}/promo-code`, owner.idToken, { redeemCode: code })).statusCode).toBe(400);
  });
});

describe('AppSumo sign-up', () => {
  it('reserves the code at sign-up, releases it on failure, and gives the first project a year of Pro', async () => {
    const [code] = await t.app.services.billing.createPromoCodes({ kind: 'APPSUMO', planId: 'PRO', count: 1 });
    const um = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/ms-usermanagement${url}`, payload });
    expect((await um('/promo-codes/apply', { code: 'WRONG', email: 'sumo@example.com' })).statusCode).toBe(400);
    expect((await um('/promo-codes/apply', { code, email: 'sumo@example.com' })).statusCode).toBe(200);
    expect((await um('/promo-codes/apply', { code, email: 'thief@example.com' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/ms-usermanagement/promotions?email=sumo@example.com' })).json()).toEqual({ hasPromotion: true });
    // a failed sign-up releases it, and it can be reserved again
    expect((await um('/promo-codes/release', { email: 'sumo@example.com' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/ms-usermanagement/promotions?email=sumo@example.com' })).json()).toEqual({ hasPromotion: false });
    expect((await um('/promo-codes/apply', { code, email: 'sumo@example.com' })).statusCode).toBe(200);
    await um('/auth/sign-up', { username: 'sumo@example.com', password: PASSWORD, firstName: 'Su', lastName: 'Mo' });
    await um('/auth/activate', { username: 'sumo@example.com', code: codeFromMail((await t.lastMail('sumo@example.com'))!.text, '/account/verify/') });
    const s = await login(t, 'sumo@example.com', PASSWORD);
    const pid = await createProject(t, s.idToken, 'Sumo');
    const sub = (await call('GET', `/projects/${pid}/subscription`, s.idToken)).json();
    expect(sub).toMatchObject({ plan: { id: 'PRO' }, status: 'ACTIVE' });
    expect((await call('GET', `/projects/${pid}/subscription/history`, s.idToken)).json().history[0].type).toBe('APPSUMO');
    const second = await createProject(t, s.idToken, 'Sumo Two');
    expect((await call('GET', `/projects/${second}/subscription`, s.idToken)).json().plan.id).toBe('STARTER');
  });
});

describe('plan gate', () => {
  it('answers 402 with a message when the plan lacks a feature, and lets it through when it has it', async () => {
    const pid = await createProject(t, outsider.idToken, 'Gated');
    const billing = t.app.services.billing;
    await expect(billing.assertFeature(pid, 'slackIntegration')).rejects.toMatchObject({
      status: 402,
      message: 'Your plan does not include Slack integration. Upgrade your plan to use it.',
    });
    await expect(billing.assertFeature(pid, 'pipelinesManager')).resolves.toBeUndefined();
    await expect(billing.assertWithinLimit(pid, 'environmentsAllowed', 2)).rejects.toMatchObject({ status: 402 });
    await expect(billing.assertWithinLimit(pid, 'environmentsAllowed', 1)).resolves.toMatchObject({ environmentsAllowed: 2 }); // the plan's limitations, as read
    const [code] = await billing.createPromoCodes({ kind: 'PROMO', planId: 'PRO', count: 1 });
    await billing.redeem(pid, code!);
    await expect(billing.assertFeature(pid, 'slackIntegration')).resolves.toBeUndefined();
  });
});
