import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import Stripe from 'stripe';
import { startStripeStandin, type StripeStandin } from '@gantry/test-support/stripe-standin';
import { createTestApp, registerUser, bearer, createProject, addMember, type TestApp } from '../../../test/helpers.js';

const SECRET_KEY = 'sk_test_gantry_standin';
const WEBHOOK_SECRET = 'whsec_gantry_test_secret';
const stripe = new Stripe(SECRET_KEY);

let t: TestApp;
let standin: StripeStandin;
let owner: { idToken: string };
let admin: { idToken: string };
let outsider: { idToken: string };
let projectId: string;

beforeAll(async () => {
  standin = await startStripeStandin({ secretKey: SECRET_KEY });
  t = await createTestApp({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: standin.url });
  owner = await registerUser(t, 'card-owner@example.com');
  outsider = await registerUser(t, 'card-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Cards');
  admin = await addMember(t, owner.idToken, projectId, 'card-admin@example.com', 'admin');
});
afterAll(async () => {
  await t?.close();
  await standin?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, idToken: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-project${url}`, headers: bearer(idToken), payload });

/** Posts an event the way Stripe does: raw JSON, signed with the endpoint secret by the SDK's test helper. */
const deliver = (event: object, secret = WEBHOOK_SECRET) => {
  const payload = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/ms-project/billing/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    payload,
  });
};

const sessionIdOf = (url: string) => url.split('/').pop()!;

describe('Stripe Checkout', () => {
  it('tells the web that card payments are on', async () => {
    expect((await call('GET', '/billing/provider', admin.idToken)).json()).toEqual({ cardPayments: true });
  });

  it('creates a checkout session at Stripe for a plan, for the owner only', async () => {
    const res = await call('POST', `/projects/${projectId}/checkout`, owner.idToken, { kind: 'plan', planId: 'BUSINESS', frequency: 'monthly' });
    expect(res.statusCode).toBe(200);
    expect(res.json().url).toMatch(new RegExp(`^${standin.url}/pay/cs_test_`));
    const sent = standin.requests.at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.params).toMatchObject({
      mode: 'subscription',
      client_reference_id: projectId,
      customer_email: 'card-owner@example.com',
      metadata: { projectId, planId: 'BUSINESS', frequency: 'monthly' },
      subscription_data: { metadata: { projectId, planId: 'BUSINESS' } },
      line_items: { 0: { quantity: '1', price_data: { currency: 'usd', unit_amount: '49900', recurring: { interval: 'month' } } } },
      success_url: 'http://gantry.test/settings?tab=billing&checkout=success',
    });
    expect((await call('POST', `/projects/${projectId}/checkout`, owner.idToken, { kind: 'plan', planId: 'STARTER', frequency: 'monthly' })).statusCode).toBe(
      400,
    );
    expect((await call('POST', `/projects/${projectId}/checkout`, owner.idToken, { kind: 'plan', planId: 'PRO', frequency: 'weekly' })).statusCode).toBe(400);
    expect((await call('POST', `/projects/${projectId}/checkout`, admin.idToken, { kind: 'special-deal' })).statusCode).toBe(403);
    expect((await call('POST', `/projects/${projectId}/checkout`, outsider.idToken, { kind: 'special-deal' })).statusCode).toBe(404);
  });

  it('turns the paid checkout into the subscription, a payment and history entries; a replayed event changes nothing', async () => {
    const { url } = (await call('POST', `/projects/${projectId}/checkout`, owner.idToken, { kind: 'plan', planId: 'PRO', frequency: 'yearly' })).json();
    const events = standin.complete(sessionIdOf(url));
    for (const e of events) expect((await deliver(e)).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(events[2]!)).json()).toEqual({ received: true, duplicate: true });

    const sub = (await call('GET', `/projects/${projectId}/subscription`, admin.idToken)).json();
    expect(sub).toMatchObject({
      plan: { id: 'PRO', name: 'Professional', frequency: 'yearly' },
      status: 'ACTIVE',
      recurringEnabled: true,
      expirationDate: null,
    });
    const history = (await call('GET', `/projects/${projectId}/subscription/history`, admin.idToken)).json().history;
    expect(history.map((h: any) => [h.type, h.planName])).toEqual([
      ['CARD', 'Professional'],
      ['TRIAL', 'Starter'],
    ]);
    const payments = (await call('GET', `/projects/${projectId}/payments`, admin.idToken)).json().payments;
    expect(payments).toEqual([expect.objectContaining({ planName: 'Professional', amount: 828, currency: 'USD' })]);
    expect((await call('GET', `/projects/${projectId}/payments`, outsider.idToken)).statusCode).toBe(404);
  });

  it('turns recurrency off at Stripe, and ends the plan when Stripe deletes the subscription', async () => {
    const subscriptionId = [...standin.subscriptions.keys()].at(-1)!;
    const off = await call('PUT', `/projects/${projectId}/subscription/recurrency`, owner.idToken, { enabled: false });
    expect(off.json()).toMatchObject({ recurringEnabled: false });
    expect(standin.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    expect((await deliver(standin.subscriptionEvent(subscriptionId, 'customer.subscription.updated'))).statusCode).toBe(200);
    const cancelling = (await call('GET', `/projects/${projectId}/subscription`, owner.idToken)).json();
    expect(cancelling).toMatchObject({ plan: { id: 'PRO' }, status: 'ACTIVE', recurringEnabled: false });
    expect(new Date(cancelling.expirationDate).getTime()).toBeGreaterThan(Date.now());

    expect((await deliver(standin.subscriptionEvent(subscriptionId, 'customer.subscription.deleted'))).statusCode).toBe(200);
    const ended = (await call('GET', `/projects/${projectId}/subscription`, owner.idToken)).json();
    expect(ended).toMatchObject({ plan: { id: 'STARTER' }, status: 'EXPIRED' });
  });

  it('sells the special deal: one year of Professional for 69 USD, paid once', async () => {
    const { url } = (await call('POST', `/projects/${projectId}/checkout`, owner.idToken, { kind: 'special-deal' })).json();
    expect(standin.requests.at(-1)!.params).toMatchObject({ mode: 'payment', line_items: { 0: { price_data: { unit_amount: '6900' } } } });
    for (const e of standin.complete(sessionIdOf(url))) expect((await deliver(e)).statusCode).toBe(200);
    const sub = (await call('GET', `/projects/${projectId}/subscription`, owner.idToken)).json();
    expect(sub).toMatchObject({ plan: { id: 'PRO' }, status: 'ACTIVE' });
    const days = (new Date(sub.expirationDate).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect((await call('GET', `/projects/${projectId}/payments`, owner.idToken)).json().payments[0]).toMatchObject({ amount: 69, planName: 'Professional' });
  });

  it('refuses an event with a bad signature (400) or none (400), and changes nothing', async () => {
    const before = (await call('GET', `/projects/${projectId}/subscription/history`, owner.idToken)).json().history.length;
    const { url } = (await call('POST', `/projects/${projectId}/checkout`, owner.idToken, { kind: 'plan', planId: 'BUSINESS', frequency: 'yearly' })).json();
    const [, completed] = standin.complete(sessionIdOf(url));
    const forged = await deliver(completed!, 'whsec_someone_else');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toContain('signature');
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/ms-project/billing/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(completed),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await call('GET', `/projects/${projectId}/subscription/history`, owner.idToken)).json().history).toHaveLength(before);
  });
});

describe('without STRIPE_SECRET_KEY', () => {
  it('says plans are managed by the instance admin, and has no webhook', async () => {
    const plain = await createTestApp();
    try {
      const u = await registerUser(plain, 'no-cards@example.com');
      const pid = await createProject(plain, u.idToken, 'Plain');
      const h = bearer(u.idToken);
      expect((await plain.app.inject({ method: 'GET', url: '/ms-project/billing/provider', headers: h })).json()).toEqual({ cardPayments: false });
      const res = await plain.app.inject({ method: 'POST', url: `/ms-project/projects/${pid}/checkout`, headers: h, payload: { kind: 'special-deal' } });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('plans are managed by the instance admin');
      const hook = await plain.app.inject({
        method: 'POST',
        url: '/ms-project/billing/stripe/webhook',
        headers: { 'stripe-signature': 't=1,v1=00' },
        payload: '{}',
      });
      expect(hook.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
