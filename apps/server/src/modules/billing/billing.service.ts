import crypto from 'node:crypto';
import {
  STARTER_PLAN_ID,
  PRO_PLAN_ID,
  TRIAL_DAYS,
  PROMO_DAYS,
  SPECIAL_DEAL_PRICE,
  type CheckoutBody,
  type Payment,
  planLimitMessage,
  numericLimitMessage,
  type FeatureLimitation,
  type NumericLimitation,
  type Subscription,
  type SubscriptionHistoryEntry,
  type PaymentPlan,
} from '@gantry/contracts';
import type { Tx } from '../../platform/db.js';
import { Conflict, NotFound, PlanLimit, Validation } from '../../platform/errors.js';
import type { BillingStore } from './billing.store.js';
import { PLANS } from './billing.plans.js';
import type { CardPayments } from './billing.stripe.js';
import { applyCardEvent } from './billing.card-events.js';

const NO_CARD_PAYMENTS = 'Card payments are not set up on this instance: plans are managed by the instance admin.';

const days = (from: Date, n: number) => new Date(from.getTime() + n * 86_400_000);

export function createBillingService(deps: { store: BillingStore; now?: () => Date; cards?: CardPayments | null; baseUrl?: () => string }) {
  const { store } = deps;
  const cards = deps.cards ?? null;
  const now = deps.now ?? (() => new Date());

  /** The plan in force: the subscription's, or STARTER once a paid or promo one has run out (self-hosted never locks a team out). */
  function planInForce(sub: { planId: string; type: string; expirationDate: Date | null }) {
    const expired = !!sub.expirationDate && sub.expirationDate <= now();
    return { expired, planId: expired && sub.type !== 'TRIAL' ? STARTER_PLAN_ID : sub.planId };
  }

  async function current(projectId: string) {
    const sub = await store.current(projectId);
    if (!sub) throw new NotFound('Project not found');
    const { expired, planId } = planInForce(sub);
    const plan = (await store.plan(planId))!;
    return { sub, plan, expired };
  }

  async function redeemInto(projectId: string, code: string, email: string | null, tx?: Tx) {
    const row = await store.redeem(code, projectId, email, tx);
    if (!row) return false;
    await store.addSubscription(
      {
        projectId,
        planId: row.planId,
        type: row.kind === 'APPSUMO' ? 'APPSUMO' : 'PROMO',
        frequency: 'yearly',
        startDate: now(),
        expirationDate: days(now(), row.days),
      },
      tx,
    );
    return true;
  }

  return {
    async ensurePlans() {
      for (const p of PLANS) await store.upsertPlan(p);
    },

    async plans(): Promise<PaymentPlan[]> {
      return (await store.plans()).map((p) => ({
        id: p.id,
        name: p.name,
        pricing: { monthly: p.priceMonthly, yearly: p.priceYearly },
        limitations: p.limitations,
      }));
    },

    /** A new project starts its STARTER trial, or the creator's reserved promotion if there is one. */
    async startProject(projectId: string, creatorEmail: string, tx: Tx) {
      const promo = await store.reservedFor(creatorEmail, tx);
      if (promo && (await redeemInto(projectId, promo.code, creatorEmail, tx))) return;
      await store.addSubscription({ projectId, planId: STARTER_PLAN_ID, type: 'TRIAL', startDate: now(), expirationDate: days(now(), TRIAL_DAYS) }, tx);
    },

    async subscription(projectId: string): Promise<Subscription> {
      const { sub, plan, expired } = await current(projectId);
      return {
        plan: { id: plan.id, name: plan.name, price: sub.frequency === 'monthly' ? plan.priceMonthly : plan.priceYearly, frequency: sub.frequency },
        status: expired ? 'EXPIRED' : sub.type === 'TRIAL' ? 'TRIAL' : 'ACTIVE',
        expirationDate: sub.expirationDate?.toISOString() ?? null,
        recurringEnabled: sub.recurringEnabled,
        limitations: plan.limitations,
      };
    },

    /**
     * Each project's plan id in force, for lists, and `changesAt`: the first time (epoch ms) one of them
     * may change without a write (a subscription starts or runs out), Infinity when none will.
     */
    /** The tables planIds reads. */
    planIdsReads: store.subscriptionsForReads,
    async planIds(projectIds: string[]): Promise<{ planIds: Map<string, string>; changesAt: number }> {
      const at = now();
      const planIds = new Map<string, string>();
      let changesAt = Infinity;
      const later = (d: Date | null) => {
        if (d && d > at) changesAt = Math.min(changesAt, d.getTime());
      };
      // newest start first: a project's first started one is in force
      for (const s of await store.subscriptionsFor(projectIds)) {
        later(s.startDate);
        later(s.expirationDate);
        if (s.startDate <= at && !planIds.has(s.projectId)) planIds.set(s.projectId, planInForce(s).planId);
      }
      return { planIds, changesAt };
    },

    async history(projectId: string): Promise<SubscriptionHistoryEntry[]> {
      return (await store.history(projectId)).map(({ subscription: s, planName }) => ({
        subscriptionId: s.id,
        type: s.type,
        planId: s.planId,
        planName,
        startDate: s.startDate.toISOString(),
        expirationDate: s.expirationDate?.toISOString() ?? null,
      }));
    },

    async payments(projectId: string): Promise<Payment[]> {
      return (await store.payments(projectId)).map(({ payment: p, planName }) => ({
        id: p.id,
        planName,
        amount: p.amount / 100,
        currency: p.currency.toUpperCase(),
        paidAt: p.paidAt.toISOString(),
      }));
    },

    /** A card subscription renews (or not) at the provider; the local flag follows. */
    async setRecurrency(projectId: string, enabled: boolean) {
      const { sub } = await current(projectId);
      if (sub.type === 'CARD' && sub.externalId?.startsWith('sub_')) {
        if (!cards) throw new Conflict(NO_CARD_PAYMENTS);
        await cards.setRenewal(sub.externalId, enabled);
      }
      await store.setRecurring(sub.id, enabled);
    },

    provider: () => ({ cardPayments: !!cards }),

    /** A Stripe Checkout page for a plan subscription or the special deal; answers where to send the browser. */
    async checkout(projectId: string, email: string, body: CheckoutBody) {
      if (!cards) throw new Conflict(NO_CARD_PAYMENTS);
      const back = `${deps.baseUrl?.() ?? ''}/settings?tab=billing`;
      const common = { projectId, customerEmail: email, successUrl: `${back}&checkout=success`, cancelUrl: `${back}&checkout=cancelled` };
      if (body.kind === 'special-deal')
        return cards.checkout({
          ...common,
          planId: PRO_PLAN_ID,
          frequency: 'yearly',
          productName: 'Gantry Professional, 1 year (special deal)',
          amount: SPECIAL_DEAL_PRICE * 100,
        });
      const plan = await store.plan(body.planId);
      if (!plan || plan.priceMonthly === 0) throw new Validation(`Unknown or free plan ${body.planId}`, { planId: ['Please choose a paid plan'] });
      // Prices are per month; the yearly one is billed for twelve months at once.
      const amount = body.frequency === 'monthly' ? plan.priceMonthly * 100 : plan.priceYearly * 12 * 100;
      return cards.checkout({
        ...common,
        planId: plan.id,
        frequency: body.frequency,
        productName: `Gantry ${plan.name} (${body.frequency})`,
        amount,
        interval: body.frequency === 'monthly' ? 'month' : 'year',
      });
    },

    /** A verified card provider webhook; a replayed event id changes nothing. */
    async receiveCardEvent(rawBody: string, signature: string) {
      if (!cards) throw new NotFound(NO_CARD_PAYMENTS);
      let event: ReturnType<CardPayments['verifyEvent']>;
      try {
        event = cards.verifyEvent(rawBody, signature);
      } catch (e) {
        throw new Validation(`Webhook signature verification failed: ${(e as Error).message}`);
      }
      return store.transaction(async (tx) => {
        if (!(await store.markEvent(event.id, event.type, tx))) return { received: true as const, duplicate: true };
        await applyCardEvent(store, tx, event);
        return { received: true as const, duplicate: false };
      });
    },

    async redeem(projectId: string, code: string) {
      if (!(await redeemInto(projectId, code.trim(), null)))
        throw new Validation('This promo code is not valid or was already used.', { redeemCode: ['This promo code is not valid or was already used.'] });
    },

    async reserveCode(code: string, email: string) {
      if (!(await store.reserve(code.trim(), email)))
        throw new Validation('This promo code is not valid or was already used.', { code: ['This promo code is not valid or was already used.'] });
    },
    releaseCode: (email: string) => store.release(email),
    hasPromotion: async (email: string) => !!(await store.reservedFor(email)),

    async createPromoCodes(o: { kind: 'PROMO' | 'APPSUMO'; planId: string; count: number; days?: number }) {
      if (!(await store.plan(o.planId))) throw new Validation(`Unknown plan ${o.planId}`);
      const codes = Array.from({ length: o.count }, () => crypto.randomBytes(8).toString('hex').toUpperCase());
      await store.insertCodes(codes.map((code) => ({ code, kind: o.kind, planId: o.planId, days: o.days ?? PROMO_DAYS })));
      return codes;
    },

    /** The instance admin sets a project's plan (`npx gantry plans set`): a subscription without end, in force from now. */
    async setPlan(projectId: string, planId: string) {
      if (!(await store.plan(planId))) throw new Validation(`Unknown plan ${planId}; plans: ${(await store.plans()).map((p) => p.id).join(', ')}`);
      await store.addSubscription({ projectId, planId, type: 'PAID', frequency: 'yearly', startDate: now(), expirationDate: null });
    },

    async limitations(projectId: string) {
      return (await current(projectId)).plan.limitations;
    },

    /** The one plan gate: 402 with a message when the project's plan lacks the feature. */
    async assertFeature(projectId: string, key: FeatureLimitation) {
      const limits = await this.limitations(projectId);
      if (!limits[key]) throw new PlanLimit(planLimitMessage(key));
    },

    /**
     * 402 when adding `adding` to `used` would pass the plan's numeric limit (`used` may still be being read: the plan is read alongside);
     * answers the plan's limitations as read (what else the caller needs of them: no second read).
     */
    async assertWithinLimit(projectId: string, key: NumericLimitation, usedOrReading: number | Promise<number>, adding = 1) {
      const [limits, used] = await Promise.all([this.limitations(projectId), usedOrReading]);
      const limit = Number(limits[key] ?? 0);
      if (used + adding > limit) throw new PlanLimit(numericLimitMessage(key, limit));
      return limits;
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
