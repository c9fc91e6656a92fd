import { useQuery } from '@tanstack/react-query';
import type { AwsAccountList, AzureAccountList, GcpAccountList, ComponentVersion, ComponentVersionSchema, Schedule, ScheduleBody, ScheduleActionResult } from '@gantry/contracts';
import { http } from '../../../api/http';
import { scheduleKeys } from './keys';
import { componentPath } from './paths';

/** What the environment screens read from other areas that have no hook of their own for it: cloud accounts, component versions and schemas, schedules. */
export const useCloudAccounts = (projectId: string) =>
  useQuery({
    queryKey: ['cloud-accounts', projectId, 'all-for-environments'],
    enabled: Boolean(projectId),
    queryFn: async () => {
      const [aws, azure, gcp] = await Promise.all([
        http.get<AwsAccountList>(`/ms-aws/projects/${projectId}/aws-accounts`),
        http.get<AzureAccountList>(`/ms-aws/projects/${projectId}/azure-accounts`),
        http.get<GcpAccountList>(`/ms-aws/projects/${projectId}/gcp-accounts`),
      ]);
      return { aws: aws.awsAccounts, azure: azure.azureAccounts, gcp: gcp.gcpAccounts };
    },
  });

export const useComponentVersions = (projectId: string, componentId: string | null) =>
  useQuery({
    queryKey: ['components', projectId, 'versions', componentId], enabled: Boolean(projectId && componentId),
    queryFn: () => http.get<{ versions: ComponentVersion[] }>(`${componentPath(projectId, componentId!)}/versions`),
    select: (d) => d.versions.filter((v) => v.status === 'SUCCEEDED').sort((a, b) => Date.parse(b.stopDate ?? '0') - Date.parse(a.stopDate ?? '0')),
  });

export const getVersionSchema = (projectId: string, componentId: string, version: string) =>
  http.get<ComponentVersionSchema>(`${componentPath(projectId, componentId)}/versions/${version === 'LATEST' ? 'latest' : version}/schema`);
export const useVersionSchema = (projectId: string, componentId: string | null, version: string | null) =>
  useQuery({
    queryKey: ['components', projectId, 'schema', componentId, version], enabled: Boolean(projectId && componentId && version),
    queryFn: () => getVersionSchema(projectId, componentId!, version!),
  });

export const schedulesPath = (projectId: string) => `/ms-cloud-cost-optimizer/projects/${projectId}/schedules`;
export const listSchedules = (projectId: string) => http.get<{ schedules: Schedule[] }>(schedulesPath(projectId));
export const createSchedule = (projectId: string, body: ScheduleBody) => http.post<Schedule>(schedulesPath(projectId), body);
export const updateSchedule = (projectId: string, id: string, body: ScheduleBody) => http.put<Schedule>(`${schedulesPath(projectId)}/${id}`, body);
export const deleteSchedule = (projectId: string, id: string) => http.delete(`${schedulesPath(projectId)}/${id}`);
/** changeStateAllResources: start or stop what the schedule covers, now. */
export const changeScheduleState = (projectId: string, id: string, action: 'start' | 'stop') => http.post<ScheduleActionResult>(`${schedulesPath(projectId)}/${id}/actions`, { action });
/** listSchedules: a 402 means the plan has no Cloud Waste Manager (the cost parts show a teaser). */
export const useSchedules = (projectId: string) =>
  useQuery({ queryKey: scheduleKeys.list(projectId), queryFn: () => listSchedules(projectId), enabled: Boolean(projectId), select: (d) => d.schedules, retry: false });
