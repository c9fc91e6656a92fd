import crypto from 'node:crypto';
import {
  STARTER_PLAN_ID,
  TRIAL_DAYS,
  PROMO_DAYS,
  planLimitMessage,
  type FeatureLimitation,
  type NumericLimitation,
  type Subscription,
  type SubscriptionHistoryEntry,
  type PaymentPlan,
} from '@gantry/contracts';
import type { Tx } from '../../platform/db.js';
import { NotFound, PlanLimit, Validation } from '../../platform/errors.js';
import type { BillingStore } from './billing.store.js';
import { PLANS } from './billing.plans.js';

const days = (from: Date, n: number) => new Date(from.getTime() + n * 86_400_000);

export function createBillingService(deps: { store: BillingStore; now?: () => Date }) {
  const { store } = deps;
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

    /** Each project's plan id in force, for lists. */
    async planIds(projectIds: string[]): Promise<Map<string, string>> {
      return new Map((await store.currentFor(projectIds)).map((s) => [s.projectId, planInForce(s).planId]));
    },

    async history(projectId: string): Promise<SubscriptionHistoryEntry[]> {
      return (await store.history(projectId)).map((s) => ({
        subscriptionId: s.id,
        type: s.type,
        startDate: s.startDate.toISOString(),
        expirationDate: s.expirationDate?.toISOString() ?? null,
      }));
    },

    async setRecurrency(projectId: string, enabled: boolean) {
      const { sub } = await current(projectId);
      await store.setRecurring(sub.id, enabled);
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

    /** 402 when adding `adding` to `used` would pass the plan's numeric limit. */
    async assertWithinLimit(projectId: string, key: NumericLimitation, used: number, adding = 1) {
      const limit = Number((await this.limitations(projectId))[key] ?? 0);
      if (used + adding > limit)
        throw new PlanLimit(`Your plan allows ${limit} ${key === 'buildMinutes' ? 'build minutes' : 'environments'}. Upgrade your plan to get more.`);
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
