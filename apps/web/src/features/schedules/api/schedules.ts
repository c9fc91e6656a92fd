import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SavingScheduleBody, SavingScheduleDetail, Schedule, ScheduleActionResult, ScheduleBody, ScheduleRun, ScheduleStateBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { isPlanLimit } from '../../../api/errors';
import { askIfPlanIncludes } from '../../settings';
import { scheduleKeys, schedulePath, schedulesPath } from './keys';

export const listSchedules = (projectId: string) => http.get<{ schedules: Schedule[] }>(schedulesPath(projectId));
export const getSchedule = (projectId: string, id: string) => http.get<SavingScheduleDetail>(schedulePath(projectId, id));
export const createSchedule = (projectId: string, body: ScheduleBody | SavingScheduleBody) => http.post<Schedule>(schedulesPath(projectId), body);
export const updateSchedule = (projectId: string, id: string, body: ScheduleBody | SavingScheduleBody) => http.put<Schedule>(schedulePath(projectId, id), body);
export const deleteSchedule = (projectId: string, id: string) => http.delete(schedulePath(projectId, id));
/** changeStateAllResources (spec §7): start or stop what the schedule covers, now. */
export const changeScheduleState = (projectId: string, id: string, action: 'start' | 'stop') =>
  http.post<ScheduleActionResult>(`${schedulePath(projectId, id)}/actions`, { action });
export const setScheduleState = (projectId: string, id: string, body: ScheduleStateBody) => http.patch<Schedule>(`${schedulePath(projectId, id)}/state`, body);
export const listScheduleRuns = (projectId: string, id: string) => http.get<{ runs: ScheduleRun[] }>(`${schedulePath(projectId, id)}/runs`);

/** The schedules, asked for only when the plan includes the Cloud Waste Manager (else its 402, without the request). */
export const listSchedulesOfPlan = (qc: QueryClient, projectId: string) =>
  askIfPlanIncludes(qc, projectId, 'cloudCostOptimizer', () => listSchedules(projectId));

/** listSchedules: a 402 means the plan has no Cloud Waste Manager (menus hide it, screens show the upgrade prompt or the teaser). */
export const useSchedules = (projectId: string) => {
  const qc = useQueryClient();
  return useQuery({
    queryKey: scheduleKeys.list(projectId),
    queryFn: () => listSchedulesOfPlan(qc, projectId),
    enabled: Boolean(projectId),
    select: (d) => d.schedules,
    retry: false,
    // a 402 stays until the plan changes; refetching it when another screen mounts the list (the lazy side
    // menu) would put the query back to pending and, for that moment, take the upgrade prompt away
    retryOnMount: false,
  });
};

/** Spec §2.1: the Cloud Waste Manager section shows unless the schedules list answers 402 (while it loads, it shows). */
export const costToolsVisible = (schedulesError: unknown) => !isPlanLimit(schedulesError);
export const useCostToolsVisible = (projectId: string | undefined) => costToolsVisible(useSchedules(projectId ?? '').error);

export const useScheduleDetail = (projectId: string, id: string | undefined) =>
  useQuery({
    queryKey: scheduleKeys.detail(projectId, id ?? ''),
    queryFn: () => getSchedule(projectId, id ?? ''),
    enabled: Boolean(projectId && id),
    retry: false,
  });

/** The schedule's runs, newest first; read again every 15 s while the page is open (a run the scheduler starts shows up). */
export const useScheduleRuns = (projectId: string, id: string | undefined) =>
  useQuery({
    queryKey: scheduleKeys.runs(projectId, id ?? ''),
    queryFn: () => listScheduleRuns(projectId, id ?? ''),
    enabled: Boolean(projectId && id),
    select: (d) => d.runs,
    refetchInterval: 15_000,
  });

/** Everything about the project's schedules is read again after a change (list, details, runs). */
export function useScheduleMutations(projectId: string) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: [...scheduleKeys.all, projectId] });
  return {
    save: useMutation({
      mutationFn: ({ id, body }: { id?: string; body: SavingScheduleBody }) => (id ? updateSchedule(projectId, id, body) : createSchedule(projectId, body)),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => deleteSchedule(projectId, id), onSuccess: refresh }),
    setState: useMutation({ mutationFn: ({ id, body }: { id: string; body: ScheduleStateBody }) => setScheduleState(projectId, id, body), onSuccess: refresh }),
    act: useMutation({
      mutationFn: ({ id, action }: { id: string; action: 'start' | 'stop' }) => changeScheduleState(projectId, id, action),
      onSuccess: refresh,
    }),
  };
}
