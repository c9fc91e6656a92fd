import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdvisorQuery, AdvisorResult } from '@gantry/contracts';
import { http } from '../../../api/http';
import { askIfPlanIncludes } from '../../settings';

const advisorPath = (projectId: string) => `/ms-cloud-cost-optimizer/projects/${projectId}/advisor`;

export const advisorKeys = {
  all: (projectId: string) => ['advisor', projectId] as const,
  result: (projectId: string, q: AdvisorQuery) => [...advisorKeys.all(projectId), q.awsAccountId, q.awsRegion, q.tagKey ?? '', q.tagValue ?? ''] as const,
};

/** Waste advisor stats (spec §7): the cached result for the account, region and tag (computed once when none is cached). */
export const getAdvisorResult = (projectId: string, q: AdvisorQuery) =>
  http.get<AdvisorResult>(advisorPath(projectId), { query: { awsAccountId: q.awsAccountId, awsRegion: q.awsRegion, tagKey: q.tagKey, tagValue: q.tagValue } });
/** Fresh statistics from CloudWatch (CloudWatch calls cost money: only on the user's demand). */
export const refreshAdvisorResult = (projectId: string, q: AdvisorQuery) => http.post<AdvisorResult>(advisorPath(projectId), q);

/**
 * The cached result; never polled. `query` null: nothing asked yet. Asked for only when the plan includes the Cloud
 * Waste Manager (else its 402, without the request: an environment's card or page would log the refusal).
 */
export const useAdvisorResult = (projectId: string, query: AdvisorQuery | null) => {
  const qc = useQueryClient();
  return useQuery({
    queryKey: advisorKeys.result(projectId, query ?? { awsAccountId: '', awsRegion: '' }),
    queryFn: () => askIfPlanIncludes(qc, projectId, 'cloudCostOptimizer', () => getAdvisorResult(projectId, query!)),
    enabled: Boolean(projectId && query),
    retry: false,
    staleTime: 5 * 60_000,
  });
};

/** Asks CloudWatch again and puts the answer where the cached one was read. */
export function useRefreshAdvisor(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (q: AdvisorQuery) => refreshAdvisorResult(projectId, q),
    onSuccess: (r, q) => qc.setQueryData(advisorKeys.result(projectId, q), r),
  });
}
