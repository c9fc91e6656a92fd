import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { memoOf, tableNames, type Db, type Tx } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import { billingEvents, paymentPlans, payments, promoCodes, subscriptions } from './billing.tables.js';

export function createBillingStore(db: Db, cache?: ReadCache) {
  // every subscription of the projects, newest first (kept until subscriptions change; which one has started is decided at read)
  const subscriptionsOf = memoOf(cache)([subscriptions], (projectIds: string[]) =>
    db.select().from(subscriptions).where(inArray(subscriptions.projectId, projectIds)).orderBy(subscriptions.projectId, desc(subscriptions.startDate)),
  );
  return {
    upsertPlan: (p: typeof paymentPlans.$inferInsert) =>
      db
        .insert(paymentPlans)
        .values(p)
        .onConflictDoUpdate({
          target: paymentPlans.id,
          set: { name: p.name, priceMonthly: p.priceMonthly, priceYearly: p.priceYearly, limitations: p.limitations },
        }),
    plans: () => db.select().from(paymentPlans).orderBy(paymentPlans.priceMonthly),
    // every plan gate and deployment reads its project's plan: kept until the plans change
    plan: memoOf(cache)([paymentPlans], async (id: string) => (await db.select().from(paymentPlans).where(eq(paymentPlans.id, id)))[0]),
    addSubscription: (values: typeof subscriptions.$inferInsert, tx: Tx = db) => tx.insert(subscriptions).values(values).returning(),
    /** The newest subscription that has started (from the project's subscriptions as kept). */
    current: async (projectId: string) => {
      const now = new Date();
      return (await subscriptionsOf([projectId])).find((s) => s.startDate <= now);
    },
    /** The tables subscriptionsFor reads (for answers built on it). */
    subscriptionsForReads: tableNames([subscriptions]),
    /** Every subscription of the projects, in one query: by project, newest start first. */
    subscriptionsFor: (projectIds: string[]) => (projectIds.length ? subscriptionsOf(projectIds) : Promise.resolve([])),
    history: (projectId: string) =>
      db
        .select({ subscription: subscriptions, planName: paymentPlans.name })
        .from(subscriptions)
        .innerJoin(paymentPlans, eq(paymentPlans.id, subscriptions.planId))
        .where(eq(subscriptions.projectId, projectId))
        .orderBy(desc(subscriptions.startDate)),
    setRecurring: (id: string, enabled: boolean) => db.update(subscriptions).set({ recurringEnabled: enabled }).where(eq(subscriptions.id, id)),

    transaction: <T>(fn: (tx: Tx) => Promise<T>) => db.transaction(fn),
    /** Records a card provider event; false when it was handled before. */
    markEvent: async (id: string, type: string, tx: Tx) => (await tx.insert(billingEvents).values({ id, type }).onConflictDoNothing().returning()).length > 0,
    byExternalId: async (externalId: string, tx: Tx = db) => (await tx.select().from(subscriptions).where(eq(subscriptions.externalId, externalId)))[0],
    addExternalSubscription: (values: typeof subscriptions.$inferInsert, tx: Tx) => tx.insert(subscriptions).values(values).onConflictDoNothing().returning(),
    updateByExternalId: (externalId: string, set: Partial<typeof subscriptions.$inferInsert>, tx: Tx) =>
      tx.update(subscriptions).set(set).where(eq(subscriptions.externalId, externalId)),
    addPayment: (values: typeof payments.$inferInsert, tx: Tx) => tx.insert(payments).values(values).onConflictDoNothing(),
    payments: (projectId: string) =>
      db
        .select({ payment: payments, planName: paymentPlans.name })
        .from(payments)
        .innerJoin(paymentPlans, eq(paymentPlans.id, payments.planId))
        .where(eq(payments.projectId, projectId))
        .orderBy(desc(payments.paidAt)),

    insertCodes: (rows: (typeof promoCodes.$inferInsert)[]) => db.insert(promoCodes).values(rows),
    /** Reserves a free code for an e-mail; answers the row or nothing when the code is unknown or taken. */
    reserve: async (code: string, email: string) =>
      (
        await db
          .update(promoCodes)
          .set({ reservedEmail: email, reservedAt: new Date() })
          .where(
            and(eq(promoCodes.code, code), isNull(promoCodes.redeemedAt), sql`(${promoCodes.reservedEmail} is null or ${promoCodes.reservedEmail} = ${email})`),
          )
          .returning()
      )[0],
    release: (email: string) =>
      db
        .update(promoCodes)
        .set({ reservedEmail: null, reservedAt: null })
        .where(and(eq(promoCodes.reservedEmail, email), isNull(promoCodes.redeemedAt))),
    reservedFor: async (email: string, tx: Tx = db) =>
      (
        await tx
          .select()
          .from(promoCodes)
          .where(and(eq(promoCodes.reservedEmail, email), isNull(promoCodes.redeemedAt)))
          .limit(1)
      )[0],
    redeem: async (code: string, projectId: string, email: string | null, tx: Tx = db) =>
      (
        await tx
          .update(promoCodes)
          .set({ redeemedAt: new Date(), redeemedProjectId: projectId, reservedEmail: email })
          .where(
            and(
              eq(promoCodes.code, code),
              isNull(promoCodes.redeemedAt),
              email ? sql`(${promoCodes.reservedEmail} is null or ${promoCodes.reservedEmail} = ${email})` : isNull(promoCodes.reservedEmail),
            ),
          )
          .returning()
      )[0],
  };
}
export type BillingStore = ReturnType<typeof createBillingStore>;
