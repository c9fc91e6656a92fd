import { defineModule } from '../../platform/module.js';
import { createBillingStore } from './billing.store.js';
import { createBillingService } from './billing.service.js';
import { billingRoutes, promoSignUpRoutes } from './billing.routes.js';

/** Payment plans, subscriptions and plan gates (402). */
export const billingModule = defineModule({
  name: 'billing',
  create(platform) {
    const billing = createBillingService({ store: createBillingStore(platform.db, platform.database.cache) });
    return {
      api: billing,
      routes: [
        { prefix: '/ms-usermanagement', plugin: promoSignUpRoutes({ billing }) },
        { prefix: '/ms-project', plugin: billingRoutes({ billing, guards: platform.guards }) },
      ],
      start: () => billing.ensurePlans(),
    };
  },
});
