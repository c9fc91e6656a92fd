import { useQuery } from '@tanstack/react-query';
import type { Schedule, ScheduleBody, ScheduleActionResult } from '@gantry/contracts';
import { http } from '../../../api/http';
import { scheduleKeys } from './keys';

/** The saving schedules of the Cloud Waste Manager, as the environment screens read and write them. (Cloud accounts and component versions are read through their own features' hooks.) */
export const schedulesPath = (projectId: string) => `/ms-cloud-cost-optimizer/projects/${projectId}/schedules`;
export const listSchedules = (projectId: string) => http.get<{ schedules: Schedule[] }>(schedulesPath(projectId));
export const createSchedule = (projectId: string, body: ScheduleBody) => http.post<Schedule>(schedulesPath(projectId), body);
export const updateSchedule = (projectId: string, id: string, body: ScheduleBody) => http.put<Schedule>(`${schedulesPath(projectId)}/${id}`, body);
export const deleteSchedule = (projectId: string, id: string) => http.delete(`${schedulesPath(projectId)}/${id}`);
/** changeStateAllResources: start or stop what the schedule covers, now. */
export const changeScheduleState = (projectId: string, id: string, action: 'start' | 'stop') =>
  http.post<ScheduleActionResult>(`${schedulesPath(projectId)}/${id}/actions`, { action });
/** listSchedules: a 402 means the plan has no Cloud Waste Manager (the cost parts show a teaser). */
export const useSchedules = (projectId: string) =>
  useQuery({
    queryKey: scheduleKeys.list(projectId),
    queryFn: () => listSchedules(projectId),
    enabled: Boolean(projectId),
    select: (d) => d.schedules,
    retry: false,
  });
