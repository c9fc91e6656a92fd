import { defineModule } from '../../platform/module.js';
import { createBillingStore } from './billing.store.js';
import { createBillingService } from './billing.service.js';
import { billingRoutes, cardWebhookRoutes, promoSignUpRoutes } from './billing.routes.js';
import { createStripePayments } from './billing.stripe.js';

/** Payment plans, subscriptions and plan gates (402). */
export const billingModule = defineModule({
  name: 'billing',
  async create(platform) {
    const { config } = platform;
    if (config.STRIPE_SECRET_KEY && !config.STRIPE_WEBHOOK_SECRET)
      throw new Error('STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET (the webhook endpoint signing secret, whsec_…)');
    const cards =
      config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
        ? await createStripePayments({ secretKey: config.STRIPE_SECRET_KEY, webhookSecret: config.STRIPE_WEBHOOK_SECRET, apiBase: config.STRIPE_API_BASE })
        : null;
    const billing = createBillingService({ store: createBillingStore(platform.db, platform.database.cache), cards, baseUrl: platform.baseUrl });
    return {
      api: billing,
      routes: [
        { prefix: '/ms-usermanagement', plugin: promoSignUpRoutes({ billing }) },
        { prefix: '/ms-project', plugin: billingRoutes({ billing, guards: platform.guards }) },
        { prefix: '/ms-project', plugin: cardWebhookRoutes({ billing }) },
      ],
      start: () => billing.ensurePlans(),
    };
  },
});
