import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentPlan } from '@gantry/contracts';
import { http } from '../../../api/http';
import { billingKeys } from './keys';

export const getPaymentPlans = () => http.get<{ paymentPlans: PaymentPlan[] }>('/ms-project/payment-plans');

export const paymentPlansQuery = () =>
  queryOptions({ queryKey: billingKeys.plans(), queryFn: getPaymentPlans, select: (d) => d.paymentPlans, staleTime: 5 * 60_000 });

export const usePaymentPlans = () => useQuery(paymentPlansQuery());
