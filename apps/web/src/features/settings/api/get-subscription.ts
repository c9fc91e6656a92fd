import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Subscription } from '@gantry/contracts';
import { http } from '../../../api/http';
import { billingKeys } from './keys';

export const getSubscription = (projectId: string) => http.get<Subscription>(`/ms-project/projects/${projectId}/subscription`);

export const subscriptionQuery = (projectId: string) =>
  queryOptions({ queryKey: billingKeys.subscription(projectId), queryFn: () => getSubscription(projectId) });

export const useSubscription = (projectId: string) => useQuery(subscriptionQuery(projectId));
