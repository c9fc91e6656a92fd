import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { planLimitMessage, type FeatureLimitation, type Subscription } from '@gantry/contracts';
import { http } from '../../../api/http';
import { ApiError } from '../../../api/errors';
import { billingKeys } from './keys';

export const getSubscription = (projectId: string) => http.get<Subscription>(`/ms-project/projects/${projectId}/subscription`);

export const subscriptionQuery = (projectId: string) =>
  queryOptions({ queryKey: billingKeys.subscription(projectId), queryFn: () => getSubscription(projectId) });

export const useSubscription = (projectId: string) => useQuery(subscriptionQuery(projectId));

/**
 * `ask`, only when the project's plan includes `feature`: its subscription is read first (the limitations the server's
 * gate reads) and without the feature the answer is the 402 the server would give, without the request — whose
 * refusal the browser would log as an error on every page that reads it. Callers read the 402 as before
 * (upgrade prompts, hidden menus, teasers).
 */
export async function askIfPlanIncludes<T>(qc: QueryClient, projectId: string, feature: FeatureLimitation, ask: () => Promise<T>): Promise<T> {
  const { limitations } = await qc.fetchQuery(subscriptionQuery(projectId));
  if (!limitations[feature]) throw new ApiError(402, { message: planLimitMessage(feature), code: 'PlanLimit' });
  return ask();
}
