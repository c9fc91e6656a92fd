import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Payment } from '@gantry/contracts';
import { http } from '../../../api/http';
import { billingKeys } from './keys';

export const getPayments = (projectId: string) => http.get<{ payments: Payment[] }>(`/ms-project/projects/${projectId}/payments`);

export const paymentsQuery = (projectId: string) =>
  queryOptions({ queryKey: billingKeys.payments(projectId), queryFn: () => getPayments(projectId), select: (d) => d.payments });

export const usePayments = (projectId: string) => useQuery(paymentsQuery(projectId));
