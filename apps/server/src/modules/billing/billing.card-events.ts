import { z } from 'zod';
import { PRO_PLAN_ID, PROMO_DAYS } from '@gantry/contracts';
import type { Tx } from '../../platform/db.js';
import type { BillingStore } from './billing.store.js';

/** The parts of Stripe's objects billing reads; anything else in them is ignored. */
const Metadata = z.object({ projectId: z.string().uuid(), planId: z.string(), frequency: z.enum(['monthly', 'yearly']) });
const seconds = (s: number) => new Date(s * 1000);

const CheckoutSession = z.object({
  id: z.string(),
  mode: z.enum(['payment', 'subscription', 'setup']),
  payment_status: z.string(),
  subscription: z.string().nullish(),
  payment_intent: z.string().nullish(),
  amount_total: z.number().nullish(),
  currency: z.string().nullish(),
  metadata: Metadata,
});
const StripeSubscription = z.object({
  id: z.string(),
  status: z.string(),
  cancel_at_period_end: z.boolean(),
  ended_at: z.number().nullish(),
  metadata: Metadata.partial(),
  items: z.object({ data: z.array(z.object({ current_period_end: z.number().nullish() })) }),
});
const Invoice = z.object({
  id: z.string(),
  amount_paid: z.number(),
  currency: z.string(),
  created: z.number(),
  status_transitions: z.object({ paid_at: z.number().nullish() }).nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: z.string(), metadata: Metadata.partial().nullish() }).nullish() }).nullish(),
});

const ENDED = ['canceled', 'unpaid', 'incomplete_expired'];

/**
 * Applies one verified card provider event to subscriptions and payments. Stripe may send events
 * in any order, so a subscription row is created by whichever of checkout.session.completed and
 * customer.subscription.* comes first (both carry the checkout's metadata), and later ones update it.
 */
export async function applyCardEvent(store: BillingStore, tx: Tx, event: { type: string; created: number; data: { object: unknown } }) {
  const at = seconds(event.created);
  // Stripe's times are whole seconds: a plan paid within the second its project's trial began would
  // sort before the trial. A paid plan starts when Gantry learns of it, or at Stripe's time if later.
  const startDate = new Date(Math.max(at.getTime(), Date.now()));
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = CheckoutSession.parse(event.data.object);
      const { projectId, planId, frequency } = s.metadata;
      if (s.mode === 'subscription' && s.subscription) {
        await store.addExternalSubscription(
          { projectId, planId, frequency, type: 'CARD', startDate, expirationDate: null, recurringEnabled: true, externalId: s.subscription },
          tx,
        );
      } else if (s.mode === 'payment' && s.payment_status === 'paid') {
        // The special deal: a year of Professional, paid once.
        await store.addExternalSubscription(
          {
            projectId,
            planId: PRO_PLAN_ID,
            frequency: 'yearly',
            type: 'CARD',
            startDate,
            expirationDate: new Date(at.getTime() + PROMO_DAYS * 86_400_000),
            externalId: s.id,
          },
          tx,
        );
        await store.addPayment(
          { id: s.payment_intent ?? s.id, projectId, planId: PRO_PLAN_ID, amount: s.amount_total ?? 0, currency: s.currency ?? 'usd', paidAt: at },
          tx,
        );
      }
      return;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = StripeSubscription.parse(event.data.object);
      const periodEnd = sub.items.data[0]?.current_period_end;
      const ended = event.type === 'customer.subscription.deleted' || ENDED.includes(sub.status);
      const expirationDate = ended ? seconds(sub.ended_at ?? event.created) : sub.cancel_at_period_end && periodEnd ? seconds(periodEnd) : null;
      const recurringEnabled = !ended && !sub.cancel_at_period_end;
      const m = Metadata.safeParse(sub.metadata);
      if (!(await store.byExternalId(sub.id, tx)) && m.success)
        await store.addExternalSubscription({ ...m.data, type: 'CARD', startDate, expirationDate, recurringEnabled, externalId: sub.id }, tx);
      else await store.updateByExternalId(sub.id, { expirationDate, recurringEnabled }, tx);
      return;
    }
    case 'invoice.paid': {
      const inv = Invoice.parse(event.data.object);
      const details = inv.parent?.subscription_details;
      if (!details) return;
      const row = await store.byExternalId(details.subscription, tx);
      const m = Metadata.safeParse(details.metadata ?? {});
      const projectId = row?.projectId ?? (m.success ? m.data.projectId : null);
      const planId = row?.planId ?? (m.success ? m.data.planId : null);
      if (!projectId || !planId) return;
      await store.addPayment(
        { id: inv.id, projectId, planId, amount: inv.amount_paid, currency: inv.currency, paidAt: seconds(inv.status_transitions?.paid_at ?? inv.created) },
        tx,
      );
      return;
    }
  }
}
