import { z } from 'zod';
import { InputText } from './common.js';

export const LIMITATION_KEYS = [
  'environmentsAllowed',
  'buildMinutes',
  'pipelinesManager',
  'kubernetesDashboard',
  'slackIntegration',
  'cloudCostOptimizer',
  'environmentReplication',
  'biggerRuntimeEnvironments',
  'fullPackComponents',
  'deploymentInsights',
] as const;
export const LimitationKey = z.enum(LIMITATION_KEYS);
export type LimitationKey = z.infer<typeof LimitationKey>;
export type NumericLimitation = 'environmentsAllowed' | 'buildMinutes';
export type FeatureLimitation = Exclude<LimitationKey, NumericLimitation>;

export const Limitations = z.record(z.string(), z.union([z.number(), z.boolean()]));
export type Limitations = z.infer<typeof Limitations>;

export const PaymentPlan = z.object({
  id: z.string(),
  name: z.string(),
  pricing: z.object({ monthly: z.number(), yearly: z.number() }),
  limitations: Limitations,
});
export type PaymentPlan = z.infer<typeof PaymentPlan>;

export const SubscriptionStatus = z.enum(['TRIAL', 'ACTIVE', 'EXPIRED']);
export const Subscription = z.object({
  plan: z.object({ id: z.string(), name: z.string(), price: z.number(), frequency: z.enum(['monthly', 'yearly']) }),
  status: SubscriptionStatus,
  expirationDate: z.string().nullable(),
  recurringEnabled: z.boolean(),
  limitations: Limitations,
});
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionHistoryEntry = z.object({
  subscriptionId: z.string(),
  type: z.string(),
  /** The plan by id and by name: the history shows names, not raw ids. */
  planId: z.string(),
  planName: z.string(),
  startDate: z.string(),
  expirationDate: z.string().nullable(),
});
export type SubscriptionHistoryEntry = z.infer<typeof SubscriptionHistoryEntry>;

/** A payment the card provider reported (an invoice paid). */
export const Payment = z.object({
  id: z.string(),
  planName: z.string(),
  amount: z.number(),
  currency: z.string(),
  paidAt: z.string(),
});
export type Payment = z.infer<typeof Payment>;

/** How this instance sells plans: card payments (Stripe Checkout) when configured, else the instance admin assigns them. */
export const BillingProvider = z.object({ cardPayments: z.boolean() });
export type BillingProvider = z.infer<typeof BillingProvider>;

export const BillingFrequency = z.enum(['monthly', 'yearly']);
/** Start a card checkout: a plan subscription, or the special deal (one year of Professional for SPECIAL_DEAL_PRICE). */
export const CheckoutBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('plan'), planId: InputText().min(1), frequency: BillingFrequency }),
  z.object({ kind: z.literal('special-deal') }),
]);
export type CheckoutBody = z.infer<typeof CheckoutBody>;
export const CheckoutAnswer = z.object({ url: z.string().url() });

/** The instance admin's view of one project and its plan in force. */
export const AdminProjectPlan = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  owners: z.array(z.string()),
  plan: z.object({ id: z.string(), name: z.string() }),
  status: SubscriptionStatus,
  expirationDate: z.string().nullable(),
});
export type AdminProjectPlan = z.infer<typeof AdminProjectPlan>;
export const SetProjectPlanBody = z.object({ planId: InputText().trim().min(1, 'Please choose a plan') });
export type SetProjectPlanBody = z.infer<typeof SetProjectPlanBody>;

export const RecurrencyBody = z.object({ enabled: z.boolean() });
export const RedeemPromoBody = z.object({ redeemCode: InputText().trim().min(1, 'Please enter a promo code') });

export const STARTER_PLAN_ID = 'STARTER';
export const PRO_PLAN_ID = 'PRO';
export const BUSINESS_PLAN_ID = 'BUSINESS';
export const TRIAL_DAYS = 14;
export const PROMO_DAYS = 365;
export const KUBERNETES_TRIAL_DAYS = 30;
/** Spec §9: the special deal, one year of the Professional plan, in USD. */
export const SPECIAL_DEAL_PRICE = 69;

const labels: Record<LimitationKey, string> = {
  environmentsAllowed: 'Environments',
  buildMinutes: 'Build minutes',
  pipelinesManager: 'Pipelines Manager',
  kubernetesDashboard: 'Kubernetes Dashboard',
  slackIntegration: 'Slack integration',
  cloudCostOptimizer: 'Cloud Cost Optimizer',
  environmentReplication: 'Environment replication',
  biggerRuntimeEnvironments: 'Bigger runtime environments',
  fullPackComponents: 'Full pack components',
  deploymentInsights: 'Deployment insights',
};

/** Spec §3: numbers show as a count plus a label, booleans as a label, falsy values are hidden. */
export function describeLimitations(limitations: Limitations): string[] {
  const out: string[] = [];
  for (const key of LIMITATION_KEYS) {
    const v = limitations[key];
    if (!v) continue;
    out.push(typeof v === 'number' ? `${v} ${labels[key]}` : labels[key]);
  }
  return out;
}

/** The message of the 402 answer for a feature the plan lacks. */
export function planLimitMessage(key: LimitationKey): string {
  return `Your plan does not include ${labels[key]}. Upgrade your plan to use it.`;
}

/** The message of the 402 answer for a numeric limit reached (environments, build minutes): also what a control the limit disables says. */
export function numericLimitMessage(key: NumericLimitation, limit: number): string {
  return `Your plan allows ${limit} ${key === 'buildMinutes' ? 'build minutes' : 'environments'}. Upgrade your plan to get more.`;
}

/** Whether the plan's limitations leave no room for another of `key` with `used` already (unknown limitations: room). */
export function numericLimitReached(limitations: Limitations | undefined, key: NumericLimitation, used: number): number | null {
  const limit = limitations?.[key];
  return typeof limit === 'number' && used >= limit ? limit : null;
}
