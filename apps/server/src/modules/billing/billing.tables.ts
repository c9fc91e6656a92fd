import { pgTable, uuid, text, timestamp, boolean, integer, jsonb, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';

export const paymentPlans = pgTable('payment_plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  priceMonthly: integer('price_monthly').notNull(),
  priceYearly: integer('price_yearly').notNull(),
  limitations: jsonb('limitations').$type<Record<string, number | boolean>>().notNull(),
});

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    planId: text('plan_id')
      .notNull()
      .references(() => paymentPlans.id),
    /** PAID: set by the instance admin; CARD: bought through the card provider (Stripe). */
    type: text('type', { enum: ['TRIAL', 'PROMO', 'APPSUMO', 'PAID', 'CARD'] }).notNull(),
    frequency: text('frequency', { enum: ['monthly', 'yearly'] })
      .notNull()
      .default('yearly'),
    startDate: timestamp('start_date', { withTimezone: true }).notNull().defaultNow(),
    expirationDate: timestamp('expiration_date', { withTimezone: true }),
    recurringEnabled: boolean('recurring_enabled').notNull().default(false),
    /** The card provider's subscription (or checkout session, for one-time deals) this row mirrors. */
    externalId: text('external_id'),
  },
  (t) => [index('subscriptions_project_idx').on(t.projectId, t.startDate), uniqueIndex('subscriptions_external_idx').on(t.externalId)],
);

/** Card provider events already handled: a replayed event id changes nothing. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Payments the card provider reported (invoices paid, one-time checkouts). */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    planId: text('plan_id')
      .notNull()
      .references(() => paymentPlans.id),
    /** In the currency's smallest unit (cents). */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('payments_project_idx').on(t.projectId, t.paidAt)],
);

/** Promo codes an instance admin issues; sign-up reserves one for an e-mail, a project redeems it. */
export const promoCodes = pgTable(
  'promo_codes',
  {
    code: text('code').primaryKey(),
    kind: text('kind', { enum: ['PROMO', 'APPSUMO'] }).notNull(),
    planId: text('plan_id')
      .notNull()
      .references(() => paymentPlans.id),
    days: integer('days').notNull(),
    reservedEmail: text('reserved_email'),
    reservedAt: timestamp('reserved_at', { withTimezone: true }),
    redeemedProjectId: uuid('redeemed_project_id').references(() => projects.id, { onDelete: 'set null' }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('promo_codes_reserved_email_idx').on(t.reservedEmail)],
);
