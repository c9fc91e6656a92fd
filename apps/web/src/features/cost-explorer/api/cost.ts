import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CostDashboard, Report, ReportBody } from '@gantry/contracts';
import { http } from '../../../api/http';

const base = (projectId: string) => `/ms-cloud-cost-optimizer/projects/${projectId}`;

export const costKeys = {
  all: (projectId: string) => ['cost', projectId] as const,
  dashboard: (projectId: string) => [...costKeys.all(projectId), 'dashboard'] as const,
  reports: (projectId: string) => [...costKeys.all(projectId), 'reports'] as const,
  report: (projectId: string, id: string) => [...costKeys.reports(projectId), id] as const,
};

/** The cached dashboard: reading it never calls AWS (Cost Explorer requests cost money); `data` is null until a refresh. */
export const getCostDashboard = (projectId: string) => http.get<CostDashboard>(`${base(projectId)}/cost`);
/** Asks Cost Explorer for every AWS account of the project and caches the answer. */
export const refreshCostDashboard = (projectId: string) => http.post<CostDashboard>(`${base(projectId)}/cost/refresh`);

export const useCostDashboard = (projectId: string) =>
  useQuery({ queryKey: costKeys.dashboard(projectId), queryFn: () => getCostDashboard(projectId), enabled: Boolean(projectId), retry: false });

export function useRefreshCost(projectId: string) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: () => refreshCostDashboard(projectId), onSuccess: (d) => qc.setQueryData(costKeys.dashboard(projectId), d) });
}

export const REPORT_SENDING_POLL_MS = 2_000;
export const listReports = (projectId: string) => http.get<{ reports: Report[] }>(`${base(projectId)}/reports`);
export const getReport = (projectId: string, id: string) => http.get<Report>(`${base(projectId)}/reports/${encodeURIComponent(id)}`);

export const useReports = (projectId: string) =>
  useQuery({
    queryKey: costKeys.reports(projectId),
    queryFn: () => listReports(projectId),
    enabled: Boolean(projectId),
    select: (d) => d.reports,
    retry: false,
    // a send under way ends in seconds (its mails reach the mail server, or are refused)
    refetchInterval: (q) => (q.state.data?.reports.some((r) => r.lastSend?.status === 'SENDING') ? REPORT_SENDING_POLL_MS : false),
  });
export const useReport = (projectId: string, id: string | null) =>
  useQuery({ queryKey: costKeys.report(projectId, id ?? ''), queryFn: () => getReport(projectId, id ?? ''), enabled: Boolean(projectId && id), retry: false });

export function useReportMutations(projectId: string) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: costKeys.reports(projectId) });
  const path = (id: string) => `${base(projectId)}/reports/${encodeURIComponent(id)}`;
  return {
    save: useMutation({
      mutationFn: ({ id, body }: { id?: string; body: ReportBody }) =>
        id ? http.put<Report>(path(id), body) : http.post<Report>(`${base(projectId)}/reports`, body),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (id: string) => http.delete(path(id)), onSuccess: refresh }),
    send: useMutation({ mutationFn: (id: string) => http.post<{ sentTo: string[]; sentAt: string }>(`${path(id)}/send`), onSuccess: refresh }),
  };
}
