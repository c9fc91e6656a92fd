import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PaymentPlan,
  Subscription,
  SubscriptionHistoryEntry,
  RecurrencyBody,
  RedeemPromoBody,
  ProjectIdParams,
  OkBody,
  ApplyPromoCodeBody,
  ReleasePromoCodeBody,
  PromotionQuery,
  PromotionAnswer,
  Payment,
  BillingProvider,
  CheckoutBody,
  CheckoutAnswer,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { BillingService } from './billing.service.js';

const ok = { ok: true as const };

export function billingRoutes(deps: { billing: BillingService; guards: Guards }): FastifyPluginAsyncZod {
  const { billing, guards } = deps;
  return async (app) => {
    const tags = ['billing'];
    app.get(
      '/payment-plans',
      { preHandler: guards.authenticate, schema: { tags, response: { 200: z.object({ paymentPlans: z.array(PaymentPlan) }) } } },
      async () => ({
        paymentPlans: await billing.plans(),
      }),
    );
    app.get(
      '/projects/:projectId/subscription',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: Subscription } } },
      (req) => billing.subscription(req.params.projectId),
    );
    app.get(
      '/projects/:projectId/subscription/history',
      {
        preHandler: guards.project('view'),
        schema: { tags, params: ProjectIdParams, response: { 200: z.object({ history: z.array(SubscriptionHistoryEntry) }) } },
      },
      async (req) => ({
        history: await billing.history(req.params.projectId),
      }),
    );
    app.get(
      '/projects/:projectId/payments',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: z.object({ payments: z.array(Payment) }) } } },
      async (req) => ({ payments: await billing.payments(req.params.projectId) }),
    );
    app.get('/billing/provider', { preHandler: guards.authenticate, schema: { tags, response: { 200: BillingProvider } } }, async () => billing.provider());
    app.post(
      '/projects/:projectId/checkout',
      { preHandler: guards.project('manageProject'), schema: { tags, params: ProjectIdParams, body: CheckoutBody, response: { 200: CheckoutAnswer } } },
      (req) => billing.checkout(req.params.projectId, currentUser(req).email, req.body),
    );
    app.put(
      '/projects/:projectId/subscription/recurrency',
      { preHandler: guards.project('manageProject'), schema: { tags, params: ProjectIdParams, body: RecurrencyBody, response: { 200: Subscription } } },
      async (req) => {
        await billing.setRecurrency(req.params.projectId, req.body.enabled);
        return billing.subscription(req.params.projectId);
      },
    );
    app.post(
      '/projects/:projectId/promo-code',
      { preHandler: guards.project('manageProject'), schema: { tags, params: ProjectIdParams, body: RedeemPromoBody, response: { 200: Subscription } } },
      async (req) => {
        await billing.redeem(req.params.projectId, req.body.redeemCode);
        return billing.subscription(req.params.projectId);
      },
    );
  };
}

/** Stripe's webhook: no session, the signature over the raw body (the endpoint's secret) is the proof. */
export function cardWebhookRoutes(deps: { billing: BillingService }): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    app.post(
      '/billing/stripe/webhook',
      {
        schema: {
          tags: ['billing'],
          headers: z.object({ 'stripe-signature': z.string().min(1) }),
          response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }) },
        },
      },
      (req) => deps.billing.receiveCardEvent(String(req.body ?? ''), req.headers['stripe-signature']),
    );
  };
}

/** The sign-up side of promo codes (no session yet): reserve, release, check. */
export function promoSignUpRoutes(deps: { billing: BillingService }): FastifyPluginAsyncZod {
  const { billing } = deps;
  return async (app) => {
    const tags = ['usermanagement'];
    const strict = { rateLimit: { max: 10, timeWindow: '1 minute' } };
    app.post('/promo-codes/apply', { config: strict, schema: { tags, body: ApplyPromoCodeBody, response: { 200: OkBody } } }, async (req) => {
      await billing.reserveCode(req.body.code, req.body.email);
      return ok;
    });
    app.post('/promo-codes/release', { config: strict, schema: { tags, body: ReleasePromoCodeBody, response: { 200: OkBody } } }, async (req) => {
      await billing.releaseCode(req.body.email);
      return ok;
    });
    app.get('/promotions', { config: strict, schema: { tags, querystring: PromotionQuery, response: { 200: PromotionAnswer } } }, async (req) => ({
      hasPromotion: await billing.hasPromotion(req.query.email),
    }));
  };
}
