import { pgTable, uuid, text, timestamp, boolean, integer, jsonb, index } from 'drizzle-orm/pg-core';
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
    type: text('type', { enum: ['TRIAL', 'PROMO', 'APPSUMO', 'PAID'] }).notNull(),
    frequency: text('frequency', { enum: ['monthly', 'yearly'] })
      .notNull()
      .default('yearly'),
    startDate: timestamp('start_date', { withTimezone: true }).notNull().defaultNow(),
    expirationDate: timestamp('expiration_date', { withTimezone: true }),
    recurringEnabled: boolean('recurring_enabled').notNull().default(false),
  },
  (t) => [index('subscriptions_project_idx').on(t.projectId, t.startDate)],
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
