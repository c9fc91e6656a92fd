import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SubscriptionHistoryEntry } from '@gantry/contracts';
import { http } from '../../../api/http';
import { billingKeys } from './keys';

export const getSubscriptionHistory = (projectId: string) =>
  http.get<{ history: SubscriptionHistoryEntry[] }>(`/ms-project/projects/${projectId}/subscription/history`);

export const subscriptionHistoryQuery = (projectId: string) =>
  queryOptions({
    queryKey: billingKeys.history(projectId),
    queryFn: () => getSubscriptionHistory(projectId),
    select: (d) => [...d.history].sort((a, b) => b.startDate.localeCompare(a.startDate)),
  });

export const useSubscriptionHistory = (projectId: string) => useQuery(subscriptionHistoryQuery(projectId));
