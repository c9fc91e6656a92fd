import { useQuery } from '@tanstack/react-query';
import type { CloudResources } from '@gantry/contracts';
import { http } from '../../../api/http';
import { scheduleKeys } from './keys';

/** Get resources with pricing (spec §7): the account's EC2 instances, Auto Scaling groups and RDS instances in a region, priced by the AWS Pricing API. */
export const listCloudResources = (projectId: string, awsAccountId: string, awsRegion: string) =>
  http.get<CloudResources>(`/ms-cloud-cost-optimizer/projects/${projectId}/resources`, { query: { awsAccountId, awsRegion } });

export const useCloudResources = (projectId: string, awsAccountId: string, awsRegion: string) =>
  useQuery({
    queryKey: scheduleKeys.resources(projectId, awsAccountId, awsRegion),
    queryFn: () => listCloudResources(projectId, awsAccountId, awsRegion),
    enabled: Boolean(projectId && awsAccountId && awsRegion),
    retry: false,
    staleTime: 60_000,
  });
