import { STARTER_PLAN_ID, PRO_PLAN_ID, BUSINESS_PLAN_ID, type Limitations } from '@gantry/contracts';

/** The plans this instance offers; written into the database at start so changes here apply. */
export const PLANS: { id: string; name: string; priceMonthly: number; priceYearly: number; limitations: Limitations }[] = [
  {
    id: STARTER_PLAN_ID,
    name: 'Starter',
    priceMonthly: 0,
    priceYearly: 0,
    limitations: {
      environmentsAllowed: 2,
      buildMinutes: 500,
      pipelinesManager: true,
      kubernetesDashboard: true,
      slackIntegration: false,
      cloudCostOptimizer: false,
      environmentReplication: false,
      biggerRuntimeEnvironments: false,
      fullPackComponents: false,
      deploymentInsights: false,
    },
  },
  {
    id: PRO_PLAN_ID,
    name: 'Professional',
    priceMonthly: 99,
    priceYearly: 69,
    limitations: {
      environmentsAllowed: 10,
      buildMinutes: 3000,
      pipelinesManager: true,
      kubernetesDashboard: true,
      slackIntegration: true,
      cloudCostOptimizer: true,
      environmentReplication: true,
      biggerRuntimeEnvironments: false,
      fullPackComponents: true,
      deploymentInsights: true,
    },
  },
  {
    id: BUSINESS_PLAN_ID,
    name: 'Business',
    priceMonthly: 499,
    priceYearly: 399,
    limitations: {
      environmentsAllowed: 50,
      buildMinutes: 20000,
      pipelinesManager: true,
      kubernetesDashboard: true,
      slackIntegration: true,
      cloudCostOptimizer: true,
      environmentReplication: true,
      biggerRuntimeEnvironments: true,
      fullPackComponents: true,
      deploymentInsights: true,
    },
  },
];
